import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const objectRoutes = new Hono<AppEnv>();
