import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const photoRoutes = new Hono<AppEnv>();
