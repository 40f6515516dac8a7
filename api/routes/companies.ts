import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const companyRoutes = new Hono<AppEnv>();
