import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const notificationRoutes = new Hono<AppEnv>();
