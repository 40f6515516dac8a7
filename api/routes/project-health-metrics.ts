import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const healthMetricRoutes = new Hono<AppEnv>();
