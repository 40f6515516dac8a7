import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const riskRoutes = new Hono<AppEnv>();
