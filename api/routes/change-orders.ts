import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const changeOrderRoutes = new Hono<AppEnv>();
