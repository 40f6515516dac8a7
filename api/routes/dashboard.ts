import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const dashboardRoutes = new Hono<AppEnv>();
