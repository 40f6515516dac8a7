import { and, desc, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { formatCents } from '#shared/rules/money.ts';
import {
  ChangeOrderCreateSchema,
  ChangeOrderDecisionSchema,
  DEFAULT_REJECTION_REASON,
} from '#shared/schemas/change-order.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { visibleWhere } from '../db/scope.ts';
import { conflict, notFound } from '../http.ts';
import {
  findVisibleProject,
  nextVersion,
  notify,
  settleNotificationsAbout,
  occurredIso,
  recordActivity,
  requirePermission,
  stampFields,
  usersWithPermission,
  validate,
  type MutationContext,
} from './core.ts';

const { changeOrders } = schema;

export const APPROVE_PERMISSION = 'change_orders:approve';

export type ChangeOrderRow = typeof changeOrders.$inferSelect;

/** A change order of the user's company on a project the user may see, or 404. */
export function* findVisibleChangeOrder(c: Conn, user: SessionUser, id: string): Op<ChangeOrderRow> {
  const row = yield* io(
    c.db
      .select()
      .from(changeOrders)
      .where(and(eq(changeOrders.id, id), visibleWhere('change_orders', user)))
      .get(),
  );
  if (!row) throw notFound('Change order');
  return row;
}

/**
 * A change order request on a project the user may see (spec 01 sections 5 and 7). It starts pending, is
 * requested by the session user, and every approver but the requester is notified.
 */
export function* createChangeOrder(ctx: MutationContext, input: unknown): Op<ChangeOrderRow> {
  requirePermission(ctx, 'change_orders:create');
  const data = validate(ChangeOrderCreateSchema, input);
  const project = yield* findVisibleProject(ctx, ctx.user, data.projectId);
  const id = data.id ?? newId();
  if (
    yield* io(ctx.db.select({ id: changeOrders.id }).from(changeOrders).where(eq(changeOrders.id, id)).get())
  ) {
    throw conflict('A change order with this id already exists');
  }
  const { id: _id, ...fields } = data;
  const version = yield* nextVersion(ctx);
  const row = yield* io(
    ctx.db
      .insert(changeOrders)
      .values({
        ...fields,
        id,
        companyId: ctx.user.companyId,
        requestedBy: ctx.user.id,
        status: 'pending',
        createdAt: occurredIso(ctx),
        ...stampFields(ctx, version, [...Object.keys(fields), 'requestedBy', 'status']),
      })
      .returning()
      .get(),
  );
  yield* recordActivity(ctx, {
    actionType: 'change_order_created',
    description: `Requested change order "${row.title}" on ${project.name} (${formatCents(row.costImpact)}, ${row.timeImpact} days)`,
    entityType: 'change_order',
    entityId: id,
    metadata: { projectId: project.id, costImpact: row.costImpact, timeImpact: row.timeImpact },
  });
  for (const userId of yield* usersWithPermission(ctx, APPROVE_PERMISSION)) {
    if (userId === ctx.user.id) continue;
    yield* notify(ctx, {
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
 * Why a decided change order cannot be decided again, naming the decision and who took it (sync/SPEC.md
 * W16): a device that decided offline learns who decided first instead of overwriting them. The decider is
 * the author of the decision's activity (a rejection stores no approver). Answers the error to throw.
 */
function* alreadyDecided(ctx: MutationContext, current: ChangeOrderRow) {
  const decider = yield* io(
    ctx.db
      .select({
        name: schema.users.name,
        firstName: schema.users.firstName,
        lastName: schema.users.lastName,
      })
      .from(schema.userActivities)
      .innerJoin(schema.users, eq(schema.users.id, schema.userActivities.userId))
      .where(
        and(
          eq(schema.userActivities.companyId, ctx.user.companyId),
          eq(schema.userActivities.entityType, 'change_order'),
          eq(schema.userActivities.entityId, current.id),
          eq(schema.userActivities.actionType, `change_order_${current.status}`),
        ),
      )
      .orderBy(desc(schema.userActivities.createdAt))
      .get(),
  );
  const name = decider ? decider.name || [decider.firstName, decider.lastName].filter(Boolean).join(' ') : '';
  return conflict(
    `This change order was already ${current.status} by ${name || 'someone else'}`,
    'ALREADY_DECIDED',
  );
}

/**
 * SPEC W16, for pushed patches: a decided change order refuses any further decision before the per-field
 * decision runs (a decision is not a field edit and never takes part in last-writer-wins).
 */
export function* assertChangeOrderPending(ctx: MutationContext, row: Record<string, unknown>): Op<void> {
  const current = yield* findVisibleChangeOrder(ctx, ctx.user, String(row.id));
  if (current.status !== 'pending') throw yield* alreadyDecided(ctx, current);
}

/**
 * Approves, rejects or resolves a pending change order, from REST or a device's push (SPEC W16). Only
 * approvers may decide (SPEC W17); a decided change order cannot be decided again (409 ALREADY_DECIDED,
 * naming who decided). Approval stamps approvedBy/approvedAt; a rejection without a reason stores
 * 'Rejected by project manager'.
 */
export function* decideChangeOrder(ctx: MutationContext, id: string, input: unknown): Op<ChangeOrderRow> {
  requirePermission(ctx, APPROVE_PERMISSION, 'Only managers and admins can approve or reject change orders');
  const { status, reason } = validate(ChangeOrderDecisionSchema, input);
  const current = yield* findVisibleChangeOrder(ctx, ctx.user, id);
  if (current.status !== 'pending') throw yield* alreadyDecided(ctx, current);
  const at = occurredIso(ctx);
  const storedReason =
    status === 'rejected' ? reason || DEFAULT_REJECTION_REASON : (reason ?? current.reason);
  const set = {
    status,
    reason: storedReason,
    ...(status === 'approved' ? { approvedBy: ctx.user.id, approvedAt: at } : {}),
  };
  const version = yield* nextVersion(ctx);
  const row = yield* io(
    ctx.db
      .update(changeOrders)
      .set({ ...set, ...stampFields(ctx, version, Object.keys(set), current.fieldMeta) })
      .where(
        and(
          eq(changeOrders.id, id),
          eq(changeOrders.companyId, ctx.user.companyId),
          eq(changeOrders.status, 'pending'),
        ),
      )
      .returning()
      .get(),
  );
  if (!row) throw yield* alreadyDecided(ctx, yield* findVisibleChangeOrder(ctx, ctx.user, id));
  yield* recordActivity(ctx, {
    actionType: `change_order_${status}`,
    description: `${status.charAt(0).toUpperCase()}${status.slice(1)} change order "${row.title}"`,
    entityType: 'change_order',
    entityId: id,
    metadata: { projectId: row.projectId, status, reason: row.reason },
  });
  yield* settleNotificationsAbout(ctx, 'change_order', id);
  if (row.requestedBy && row.requestedBy !== ctx.user.id) {
    yield* notify(ctx, {
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
