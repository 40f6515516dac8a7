import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const scheduleChangeRoutes = new Hono<AppEnv>();
