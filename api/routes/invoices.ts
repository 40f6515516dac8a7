import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const invoiceRoutes = new Hono<AppEnv>();
