import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const timeEntryRoutes = new Hono<AppEnv>();
