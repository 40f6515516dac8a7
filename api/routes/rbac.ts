import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const rbacRoutes = new Hono<AppEnv>();
