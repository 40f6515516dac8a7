import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const taskRoutes = new Hono<AppEnv>();
