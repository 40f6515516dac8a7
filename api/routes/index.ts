import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { activityRoutes } from './activities.ts';
import { changeOrderRoutes } from './change-orders.ts';
import { communicationRoutes } from './communications.ts';
import { companyRoutes } from './companies.ts';
import { dashboardRoutes } from './dashboard.ts';
import { healthMetricRoutes } from './project-health-metrics.ts';
import { invoiceRoutes } from './invoices.ts';
import { logRoutes } from './logs.ts';
import { notificationRoutes } from './notifications.ts';
import { objectRoutes } from './objects.ts';
import { photoRoutes } from './photos.ts';
import { projectRoutes } from './projects.ts';
import { rbacRoutes } from './rbac.ts';
import { riskRoutes } from './risk-assessments.ts';
import { scheduleChangeRoutes } from './schedule-changes.ts';
import { assignmentRoutes } from './subcontractor-assignments.ts';
import { syncRoutes } from './sync.ts';
import { taskRoutes } from './tasks.ts';
import { timeEntryRoutes } from './time-entries.ts';
import { userRoutes } from './users.ts';

/** One sub-app per resource, mounted under /api (honojs best practices: app.route per resource). */
export const apiRoutes = new Hono<AppEnv>()
  .route('/dashboard', dashboardRoutes)
  .route('/activities', activityRoutes)
  .route('/projects', projectRoutes)
  .route('/tasks', taskRoutes)
  .route('/schedule-changes', scheduleChangeRoutes)
  .route('/logs', logRoutes)
  .route('/photos', photoRoutes)
  .route('/objects', objectRoutes)
  .route('/users', userRoutes)
  .route('/subcontractor-assignments', assignmentRoutes)
  .route('/notifications', notificationRoutes)
  .route('/communications', communicationRoutes)
  .route('/change-orders', changeOrderRoutes)
  .route('/invoices', invoiceRoutes)
  .route('/time-entries', timeEntryRoutes)
  .route('/project-health-metrics', healthMetricRoutes)
  .route('/risk-assessments', riskRoutes)
  .route('/rbac', rbacRoutes)
  .route('/companies', companyRoutes)
  .route('/sync', syncRoutes);
