import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const communicationRoutes = new Hono<AppEnv>();
