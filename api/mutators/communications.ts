import { and, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { CommunicationCreateSchema } from '#shared/schemas/communication.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { visibleWhere } from '../db/scope.ts';
import { conflict, forbidden, notFound } from '../http.ts';
import {
  findVisibleProject,
  nextVersion,
  occurredIso,
  recordActivity,
  requirePermission,
  stampFields,
  validate,
  type MutationContext,
} from './core.ts';

const { communications } = schema;

export type CommunicationRow = typeof communications.$inferSelect;

const DECIDED = new Set(['approved', 'rejected', 'resolved']);

/** The name a user signs with: the display name, else first and last name, else the email. */
export function displayName(user: SessionUser): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return user.name || full || user.email;
}

/** A communication of the user's company on a project the user may see, or 404. */
export function* findVisibleCommunication(c: Conn, user: SessionUser, id: string): Op<CommunicationRow> {
  const row = yield* io(
    c.db
      .select()
      .from(communications)
      .where(and(eq(communications.id, id), visibleWhere('communications', user)))
      .get(),
  );
  if (!row) throw notFound('Communication');
  return row;
}

/**
 * A new message, dispute or invoice note on a project the user may see (spec 01 sections 2, 5 and 7),
 * from REST or a device's push (sync/SPEC.md W15). The sender is the session user; the status starts open
 * unless the body says otherwise.
 */
export function* createCommunication(ctx: MutationContext, input: unknown): Op<CommunicationRow> {
  requirePermission(ctx, 'communications:create');
  const data = validate(CommunicationCreateSchema, input);
  // Field roles raise issues; deciding them stays with those who decide change orders (DECISIONS.md), so
  // a message cannot be born approved, rejected or resolved by someone who could not decide it later.
  if (DECIDED.has(data.status) && !ctx.user.permissions.has('change_orders:approve')) {
    throw forbidden(`Only an admin or manager can file a communication as ${data.status}`);
  }
  const project = yield* findVisibleProject(ctx, ctx.user, data.projectId);
  const id = data.id ?? newId();
  if (
    yield* io(
      ctx.db.select({ id: communications.id }).from(communications).where(eq(communications.id, id)).get(),
    )
  ) {
    throw conflict('A communication with this id already exists');
  }
  const { id: _id, ...fields } = data;
  const sender = { fromUserId: ctx.user.id, fromEmail: ctx.user.email, fromName: displayName(ctx.user) };
  const version = yield* nextVersion(ctx);
  const row = yield* io(
    ctx.db
      .insert(communications)
      .values({
        ...fields,
        ...sender,
        id,
        companyId: ctx.user.companyId,
        createdAt: occurredIso(ctx),
        ...stampFields(ctx, version, [...Object.keys(fields), ...Object.keys(sender)]),
      })
      .returning()
      .get(),
  );
  yield* recordActivity(ctx, {
    actionType: 'communication_created',
    description: `Sent ${row.type} "${row.subject}" on ${project.name}`,
    entityType: 'communication',
    entityId: id,
    metadata: { projectId: project.id, type: row.type, priority: row.priority },
  });
  return row;
}
