import { and, eq, inArray, lt } from 'drizzle-orm';
import type { RoleKind } from '#shared/enums.ts';
import { newId, PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import { ROLE_TEMPLATES } from '#shared/permissions.ts';
import type { SessionUser } from '../../context.ts';
import { createChangeOrder, decideChangeOrder } from '../../mutators/change-orders.ts';
import { createCommunication } from '../../mutators/communications.ts';
import { createCompany } from '../../mutators/companies.ts';
import { nextVersion, notify, restContext, type MutationContext } from '../../mutators/core.ts';
import { calculateProjectHealth } from '../../mutators/health.ts';
import { statements } from '../../mutators/statements.ts';
import { io, runSync } from '../op.ts';
import { sqliteConn } from '../sql.ts';
import { connOf } from '../database.ts';
import { createLog } from '../../mutators/logs.ts';
import { createPhoto } from '../../mutators/photos.ts';
import { createProject, updateProject } from '../../mutators/projects.ts';
import { createRiskAssessment } from '../../mutators/risks.ts';
import { createScheduleChange, updateScheduleChange } from '../../mutators/schedule-changes.ts';
import { createTask, updateTask } from '../../mutators/tasks.ts';
import { createUser } from '../../mutators/users.ts';
import { schema, type Db } from '../index.ts';
import { ROOT_PERSON } from './demo-data/content.ts';
import type { TenantSpec } from './demo-data/types.ts';
import type { DemoPhoto } from './images.ts';
import { Builder, identityTimes, rootCreatedMs, type DemoPlan } from './plan.ts';
import { DAY, iso } from './random.ts';

/*
 * The demo is written through the mutators, the same functions REST and sync push call, acting as the
 * person who did each thing at the time they did it (ctx.now is the demo's moment). So versions, field
 * stamps, activities, notifications and health scores are whatever the rules make of them today.
 *
 * Written directly, each for the reason given where it happens (keep this list short):
 * - the platform company, permission catalogue and template roles (rbac.ts: what the mutators stand on);
 * - the root user (nobody exists yet to create it);
 * - the tenants' contact fields and the demo accounts' must_change_password (no mutator field for them);
 * - subcontractor assignments, invoices, time entries, health check templates and client-sent
 *   communications with their recipients (no mutators for these rows or fields);
 * - notification read state (people have read what is older than a day).
 */

const { companies, users, communications, notifications, subcontractorAssignments } = schema;

export interface DemoInput {
  nowMs: number;
  passwordHash: string;
  tenants: readonly TenantSpec[];
  photos: readonly DemoPhoto[];
}

/** Sessions of the demo's people, as the session middleware would build them. */
class Actors {
  private readonly cache = new Map<string, SessionUser>();
  private readonly grants = new Map<number, ReadonlySet<string>>();

  constructor(private readonly db: Db) {}

  private permissions(roleId: number | null): ReadonlySet<string> {
    if (roleId === null) return new Set();
    let set = this.grants.get(roleId);
    if (!set) {
      const rows = this.db
        .select({ name: schema.permissions.name })
        .from(schema.rolePermissions)
        .innerJoin(schema.permissions, eq(schema.permissions.id, schema.rolePermissions.permissionId))
        .where(eq(schema.rolePermissions.roleId, roleId))
        .all();
      set = new Set(rows.map((r) => r.name));
      this.grants.set(roleId, set);
    }
    return set;
  }

  user(id: string): SessionUser {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const row = this.db
      .select({ user: users, companyName: companies.name, companyTimeZone: companies.timeZone })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(eq(users.id, id))
      .get();
    if (!row) throw new Error(`Seed: no user ${id}`);
    const u = row.user;
    const session: SessionUser = {
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      name: u.name,
      role: u.role as RoleKind,
      roleId: u.roleId,
      companyId: u.companyId,
      companyName: row.companyName,
      companyTimeZone: row.companyTimeZone,
      mustChangePassword: false,
      permissions: this.permissions(u.roleId),
      sessionId: 'seed',
    };
    this.cache.set(id, session);
    return session;
  }

  /** A REST-like context for `userId` acting at `at` (ISO or epoch ms). */
  as(userId: string, at: string | number): MutationContext {
    return restContext(connOf(this.db), this.user(userId), new Date(at));
  }
}

/** Writes the whole demo inside the caller's write transaction. */
export function writeDemo(db: Db, input: DemoInput): void {
  const actors = new Actors(db);
  const { rootId, companyIds, userIds } = writeIdentities(db, actors, input);
  const plan = new Builder(
    input.nowMs,
    {
      companyId: (spec) => required(companyIds.get(spec.domain), spec.domain),
      userId: (email) => required(userIds.get(email), email),
    },
    input.photos,
  ).build(input.tenants, rootId);
  writePlan(db, actors, plan, input.nowMs);
}

function required<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`Seed: no ${what}`);
  return value;
}

function writeIdentities(db: Db, actors: Actors, input: DemoInput) {
  const { nowMs, passwordHash } = input;
  // Direct: createUser needs a signed-in administrator, and the root user is the first one.
  const rootId = newId();
  const rootAt = iso(rootCreatedMs(nowMs));
  db.insert(users)
    .values({
      id: rootId,
      email: ROOT_PERSON.email,
      username: ROOT_PERSON.email,
      firstName: ROOT_PERSON.firstName,
      lastName: ROOT_PERSON.lastName,
      name: `${ROOT_PERSON.firstName} ${ROOT_PERSON.lastName}`,
      password: passwordHash,
      role: 'root',
      roleId: ROLE_TEMPLATES.root.id,
      companyId: PLATFORM_COMPANY_ID,
      createdAt: rootAt,
      updatedAt: rootAt,
    })
    .run();

  const companyIds = new Map<string, string>();
  const userIds = new Map<string, string>([[ROOT_PERSON.email, rootId]]);
  for (const [i, spec] of input.tenants.entries()) {
    const { companyMs, personMs } = identityTimes(nowMs, i);
    const company = runSync(
      createCompany(actors.as(rootId, companyMs), {
        name: spec.name,
        domain: spec.domain,
        status: 'active',
        settings: { type: 'customer', subscription_tier: spec.tier },
      }),
    );
    companyIds.set(spec.domain, company.id);
    // Direct: the company form (and so CompanyCreateSchema) has no contact fields.
    db.update(companies)
      .set({ address: spec.address, phone: spec.phone, email: spec.email, website: spec.website })
      .where(eq(companies.id, company.id))
      .run();
    // Root adds the company's administrator; the administrator adds everyone else.
    let adminId: string | undefined;
    for (const [j, person] of spec.people.entries()) {
      const by = adminId ?? rootId;
      const user = runSync(
        createUser(
          actors.as(by, personMs(j)),
          {
            email: person.email,
            first_name: person.firstName,
            last_name: person.lastName,
            company_id: company.id,
            role_id: ROLE_TEMPLATES[person.kind].id,
          },
          passwordHash,
        ),
      );
      userIds.set(person.email, user.id);
      if (person.kind === 'admin') adminId ??= user.id;
    }
  }
  // Direct: the README's demo accounts sign in with the shared demo password as they are; an
  // admin-created account would otherwise have to replace it at first sign-in.
  db.update(users)
    .set({ mustChangePassword: false })
    .where(inArray(users.id, [...userIds.values()]))
    .run();
  return { rootId, companyIds, userIds };
}

function writePlan(db: Db, actors: Actors, plan: DemoPlan, nowMs: number): void {
  // The manager opens each project; status, progress and cost come with the last progress report.
  for (const p of plan.projects) {
    runSync(
      createProject(actors.as(p.managerId, p.createdAt), {
        id: p.id,
        name: p.name,
        description: p.description,
        location: p.location,
        dueDate: p.dueDate,
        budget: p.budget,
        clientName: p.clientName,
        clientEmail: p.clientEmail,
        clientPhone: p.clientPhone,
      }),
    );
  }

  // Direct (no mutator), and active while the field work below is written so a subcontractor can reach
  // the project; an assignment that has since ended gets its final status at the end.
  db.insert(subcontractorAssignments)
    .values(plan.subcontractorAssignments.map((a) => ({ ...a, status: 'active' })))
    .run();

  const handedOver = new Set(plan.handovers.map((h) => h.taskId));
  for (const t of plan.tasks) {
    runSync(
      createTask(actors.as(t.createdBy, t.createdAt), {
        id: t.id,
        title: t.title,
        description: t.description,
        projectId: t.projectId,
        category: t.category,
        status: t.status === 'completed' ? 'pending' : t.status,
        priority: t.priority,
        assigneeId: handedOver.has(t.id) ? null : t.assigneeId,
        dueDate: t.dueDate,
        isMilestone: t.isMilestone,
        estimatedHours: t.estimatedHours,
      }),
    );
  }
  for (const h of plan.handovers) {
    runSync(updateTask(actors.as(h.by, h.at), h.taskId, { assigneeId: h.assigneeId }));
  }
  for (const t of plan.tasks) {
    if (t.completedAt === null) continue;
    runSync(updateTask(actors.as(t.assigneeId ?? t.createdBy, t.completedAt), t.id, { status: 'completed' }));
  }

  for (const ph of plan.photos) {
    runSync(
      createPhoto(
        actors.as(required(ph.userId, 'photographer'), ph.createdAt),
        {
          id: ph.id,
          projectId: ph.projectId,
          filename: ph.filename,
          originalName: ph.originalName,
          description: ph.description,
          tags: ph.tags,
        },
        { mimeType: ph.mimeType, sizeBytes: ph.sizeBytes, sha256: ph.sha256, blobStatus: 'present' },
      ),
    );
  }

  for (const l of plan.projectLogs) {
    runSync(
      createLog(actors.as(required(l.userId, 'log author'), l.createdAt), {
        id: l.id,
        projectId: l.projectId,
        title: l.title,
        content: l.content,
        type: l.type,
        status: l.status,
        images: l.images,
      }),
    );
  }

  for (const sc of plan.scheduleChanges) {
    runSync(
      createScheduleChange(actors.as(required(sc.userId, 'requester'), sc.createdAt), {
        id: sc.id,
        taskId: sc.taskId,
        reason: sc.reason,
        originalDate: sc.originalDate,
        newDate: sc.newDate,
      }),
    );
    if (sc.decidedBy && sc.decidedAt) {
      runSync(updateScheduleChange(actors.as(sc.decidedBy, sc.decidedAt), sc.id, { status: sc.status }));
    }
  }

  for (const co of plan.changeOrders) {
    // Crew and subcontractors file what they saw on site themselves (DECISIONS.md: who may raise them).
    runSync(
      createChangeOrder(actors.as(required(co.requestedBy, 'requester'), co.createdAt), {
        id: co.id,
        projectId: co.projectId,
        title: co.title,
        description: co.description,
        costImpact: co.costImpact,
        timeImpact: co.timeImpact,
      }),
    );
    if (co.decidedBy && co.decidedAt && co.status !== 'pending') {
      runSync(decideChangeOrder(actors.as(co.decidedBy, co.decidedAt), co.id, { status: co.status }));
    }
  }

  for (const m of plan.communications) {
    if (m.fromUserId === null) {
      // Direct: a message from the client arrives from outside; no mutator sends as someone else. It is
      // mirrored like the rest (a version of its own, stamped as a server write), so devices pull it.
      const version = runSync(io(sqliteConn(db.$client).get(statements.nextVersion, [m.companyId])));
      db.insert(communications)
        .values({ ...m, version, updatedBy: null })
        .run();
      continue;
    }
    runSync(
      createCommunication(actors.as(m.fromUserId, m.createdAt), {
        id: m.id,
        projectId: m.projectId,
        subject: m.subject,
        message: m.message,
        type: m.type,
        priority: m.priority,
        // Filed open; an office decision (resolved, approved) is the direct write below.
        status: ['approved', 'rejected', 'resolved'].includes(m.status) ? 'open' : m.status,
      }),
    );
    // Direct: the create schema has no recipient, and no mutator decides a communication yet; the feed
    // shows who a message was for and how the office settled it.
    const settled = actors.as(m.fromUserId, m.updatedAt);
    db.update(communications)
      .set({
        toUserId: m.toUserId,
        toEmail: m.toEmail,
        status: m.status,
        updatedAt: m.updatedAt,
        // A new version, so devices that pulled the message as filed also pull how it was settled.
        version: runSync(nextVersion(settled)),
      })
      .where(eq(communications.id, m.id))
      .run();
  }

  for (const r of plan.riskAssessments) {
    runSync(
      createRiskAssessment(actors.as(required(r.identifiedBy, 'risk owner'), r.createdAt), {
        id: r.id,
        projectId: r.projectId,
        riskType: r.riskType,
        riskTitle: r.riskTitle,
        riskDescription: r.riskDescription,
        probability: r.probability,
        impact: r.impact,
        status: r.status,
        mitigationPlan: r.mitigationPlan,
        assignedTo: r.assignedTo,
        dueDate: r.dueDate,
      }),
    );
  }

  for (const p of plan.projects) {
    runSync(
      updateProject(actors.as(p.managerId, p.reportedAt), p.id, {
        status: p.status,
        progress: p.progress,
        actualCost: p.actualCost,
      }),
    );
  }

  // Direct: finance and templates have no mutators.
  if (plan.invoices.length) db.insert(schema.invoices).values(plan.invoices).run();
  if (plan.timeEntries.length) db.insert(schema.timeEntries).values(plan.timeEntries).run();
  if (plan.healthCheckTemplates.length) {
    db.insert(schema.healthCheckTemplates).values(plan.healthCheckTemplates).run();
  }
  for (const a of plan.subcontractorAssignments) {
    if (a.status === 'active') continue;
    db.update(subcontractorAssignments)
      .set({ status: a.status })
      .where(eq(subcontractorAssignments.id, a.id))
      .run();
  }

  // Last, so the scores see every task, log and risk above.
  for (const h of plan.healthChecks)
    runSync(calculateProjectHealth(actors.as(h.managerId, h.at), h.projectId));

  for (const n of plan.notifications) {
    const { userId, createdAt, ...rest } = n;
    runSync(notify(actors.as(userId, createdAt), { userId, ...rest }));
  }
  // Direct: people have read what is older than a day (there is no mutator for reading).
  db.update(notifications)
    .set({ isRead: true })
    .where(and(lt(notifications.createdAt, iso(nowMs - DAY)), eq(notifications.isRead, false)))
    .run();
}
