import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const assignmentRoutes = new Hono<AppEnv>();
