import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const userRoutes = new Hono<AppEnv>();
