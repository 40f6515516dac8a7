import { and, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import {
  ChangeOrderCreateSchema,
  ChangeOrderDecisionSchema,
  DEFAULT_REJECTION_REASON,
} from '#shared/schemas/change-order.ts';
import type { SessionUser } from '../context.ts';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { visibleWhere } from '../db/scope.ts';
import { conflict, notFound } from '../http.ts';
import {
  findVisibleProject,
  notify,
  nowIso,
  recordActivity,
  requirePermission,
  usersWithPermission,
  validate,
  type MutationContext,
} from './core.ts';

const { changeOrders } = schema;

export const APPROVE_PERMISSION = 'change_orders:approve';

export type ChangeOrderRow = typeof changeOrders.$inferSelect;

const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/** A change order of the user's company on a project the user may see, or 404. */
export function findVisibleChangeOrder(db: Db, user: SessionUser, id: string): ChangeOrderRow {
  const row = db
    .select()
    .from(changeOrders)
    .where(and(eq(changeOrders.id, id), visibleWhere('change_orders', user)))
    .get();
  if (!row) throw notFound('Change order');
  return row;
}

/**
 * A change order request on a project the user may see (spec 01 sections 5 and 7). It starts pending, is
 * requested by the session user, and every approver but the requester is notified.
 */
export function createChangeOrder(ctx: MutationContext, input: unknown): ChangeOrderRow {
  requirePermission(ctx, 'change_orders:create');
  const data = validate(ChangeOrderCreateSchema, input);
  const project = findVisibleProject(ctx.db, ctx.user, data.projectId);
  const id = data.id ?? newId();
  if (ctx.db.select({ id: changeOrders.id }).from(changeOrders).where(eq(changeOrders.id, id)).get()) {
    throw conflict('A change order with this id already exists');
  }
  const at = nowIso(ctx);
  const row = ctx.db
    .insert(changeOrders)
    .values({
      ...data,
      id,
      companyId: ctx.user.companyId,
      requestedBy: ctx.user.id,
      status: 'pending',
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .get();
  recordActivity(ctx, {
    actionType: 'change_order_created',
    description: `Requested change order "${row.title}" on ${project.name} (${dollars(row.costImpact)}, ${row.timeImpact} days)`,
    entityType: 'change_order',
    entityId: id,
    metadata: { projectId: project.id, costImpact: row.costImpact, timeImpact: row.timeImpact },
  });
  for (const userId of usersWithPermission(ctx, APPROVE_PERMISSION)) {
    if (userId === ctx.user.id) continue;
    notify(ctx, {
      userId,
      title: 'Change order to review',
      message: `"${row.title}" on ${project.name} awaits approval`,
      relatedEntityType: 'change_order',
      relatedEntityId: id,
    });
  }
  return row;
}

/**
 * Approves, rejects or resolves a pending change order. Only approvers may decide (also checked here so the
 * sync engine gets the same rule); a decided change order cannot be decided again (409 ALREADY_DECIDED).
 * Approval stamps approvedBy/approvedAt; a rejection without a reason stores 'Rejected by project manager'.
 */
export function decideChangeOrder(ctx: MutationContext, id: string, input: unknown): ChangeOrderRow {
  requirePermission(ctx, APPROVE_PERMISSION, 'Only managers and admins can approve or reject change orders');
  const { status, reason } = validate(ChangeOrderDecisionSchema, input);
  const current = findVisibleChangeOrder(ctx.db, ctx.user, id);
  if (current.status !== 'pending') {
    throw conflict(`This change order was already ${current.status}`, 'ALREADY_DECIDED');
  }
  const at = nowIso(ctx);
  const storedReason =
    status === 'rejected' ? reason || DEFAULT_REJECTION_REASON : (reason ?? current.reason);
  const row = ctx.db
    .update(changeOrders)
    .set({
      status,
      reason: storedReason,
      updatedAt: at,
      ...(status === 'approved' ? { approvedBy: ctx.user.id, approvedAt: at } : {}),
    })
    .where(
      and(
        eq(changeOrders.id, id),
        eq(changeOrders.companyId, ctx.user.companyId),
        eq(changeOrders.status, 'pending'),
      ),
    )
    .returning()
    .get();
  if (!row) throw conflict('This change order was already decided', 'ALREADY_DECIDED');
  recordActivity(ctx, {
    actionType: `change_order_${status}`,
    description: `${status.charAt(0).toUpperCase()}${status.slice(1)} change order "${row.title}"`,
    entityType: 'change_order',
    entityId: id,
    metadata: { projectId: row.projectId, status, reason: row.reason },
  });
  if (row.requestedBy && row.requestedBy !== ctx.user.id) {
    notify(ctx, {
      userId: row.requestedBy,
      title: `Change order ${status}`,
      message: status === 'rejected' ? `"${row.title}": ${row.reason}` : `"${row.title}" was ${status}`,
      type: status === 'rejected' ? 'warning' : 'success',
      relatedEntityType: 'change_order',
      relatedEntityId: id,
    });
  }
  return row;
}
