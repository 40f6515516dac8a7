import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const activityRoutes = new Hono<AppEnv>();
