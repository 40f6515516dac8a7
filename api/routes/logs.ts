import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const logRoutes = new Hono<AppEnv>();
