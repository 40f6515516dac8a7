import { newId } from '#shared/ids.ts';
import type { RoleKind } from '#shared/enums.ts';
import { formatCents } from '#shared/rules/money.ts';
import { photoFileUrl } from '#shared/schemas/photo.ts';
import type { schema } from '../index.ts';
import {
  HEALTH_TEMPLATES,
  LOG_STATUS_CYCLE,
  LOG_TEMPLATES,
  LOG_TYPE_ORDER,
  PHOTO_POOLS,
  TASK_NOTES,
  TASK_POOLS,
} from './demo-data/content.ts';
import type { PersonSpec, Priority, ProjectSpec, TaskStatus, TenantSpec } from './demo-data/types.ts';
import type { DemoPhoto } from './images.ts';
import { at, clamp, DAY, HOUR, makeRng, MINUTE, shortDate, iso } from './random.ts';

/**
 * The demo's story: who did what, when. Pure computation over the tenants' data (demo-data/*.ts) and the ids of
 * the companies and people already written; write.ts replays it through the mutators, which add what the
 * rules derive (versions, field stamps, activities, notifications, health scores).
 */

type Row<T extends { $inferSelect: unknown }> = T['$inferSelect'];
/** The columns the mutators stamp on every mirrored row: never planned, always derived. */
type SyncColumns = 'version' | 'deletedAt' | 'fieldMeta' | 'updatedAt' | 'updatedBy';

export type PlanProject = Omit<Row<typeof schema.projects>, SyncColumns> & {
  /** The project manager, who opened the project and reports its progress. */
  managerId: string;
  /** When the manager last reported status, progress and cost. */
  reportedAt: string;
};
export type PlanTask = Omit<Row<typeof schema.tasks>, SyncColumns> & { createdBy: string };
export type PlanPhoto = Omit<Row<typeof schema.photos>, SyncColumns>;
export type PlanLog = Omit<Row<typeof schema.projectLogs>, SyncColumns>;
export type PlanScheduleChange = Omit<Row<typeof schema.scheduleChanges>, SyncColumns>;
/** Approval fields and the rejection reason come from the change-order mutators. */
export type PlanChangeOrder = Pick<
  Row<typeof schema.changeOrders>,
  'id' | 'projectId' | 'companyId' | 'requestedBy' | 'title' | 'description' | 'costImpact' | 'timeImpact'
> & {
  status: 'pending' | 'approved' | 'rejected';
  createdAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
};
/** The score is the risk mutator's to compute. */
export type PlanRisk = Omit<Row<typeof schema.riskAssessments>, 'riskScore' | 'updatedAt'>;
export type PlanCommunication = Omit<Row<typeof schema.communications>, SyncColumns> & { updatedAt: string };
export interface PlanNotification {
  userId: string;
  title: string;
  message: string;
  type: 'info' | 'warning' | 'success' | 'error';
  relatedEntityType?: string;
  relatedEntityId?: string;
  createdAt: string;
}

/** The ids write.ts gave the tenants and their people. */
export interface Identities {
  companyId(spec: TenantSpec): string;
  userId(email: string): string;
}

export interface DemoPlan {
  projects: PlanProject[];
  tasks: PlanTask[];
  projectLogs: PlanLog[];
  photos: PlanPhoto[];
  scheduleChanges: PlanScheduleChange[];
  notifications: PlanNotification[];
  subcontractorAssignments: Row<typeof schema.subcontractorAssignments>[];
  riskAssessments: PlanRisk[];
  healthCheckTemplates: Row<typeof schema.healthCheckTemplates>[];
  communications: PlanCommunication[];
  changeOrders: PlanChangeOrder[];
  timeEntries: Row<typeof schema.timeEntries>[];
  invoices: Row<typeof schema.invoices>[];
  /** Tasks created unassigned and handed to their assignee later, at `at`. */
  handovers: { taskId: string; assigneeId: string; by: string; at: string }[];
  /** When each project's health is calculated, after everything above is written. */
  healthChecks: { projectId: string; managerId: string; at: string }[];
}

interface Person extends PersonSpec {
  id: string;
  name: string;
}

interface ProjectCtx {
  spec: ProjectSpec;
  row: PlanProject;
  startMs: number;
  dueMs: number;
}

interface Tenant {
  spec: TenantSpec;
  company: { id: string; createdAt: string };
  people: Person[];
  admin: Person;
  manager: Person;
  crew: Person;
  /** who does project field work */
  field: Person[];
  projects: ProjectCtx[];
  person(email: string): Person;
  project(key: string): ProjectCtx;
}

type Task = PlanTask;

/** When the platform and each tenant started, and when each person joined (days before today). */
export function identityTimes(nowMs: number, tenantIndex: number) {
  const companyMs = nowMs - (500 - tenantIndex * 200) * DAY;
  return { companyMs, personMs: (personIndex: number) => companyMs + (personIndex + 1) * DAY };
}
export const rootCreatedMs = (nowMs: number) => nowMs - 600 * DAY;

export class Builder {
  readonly data: DemoPlan = {
    projects: [],
    tasks: [],
    projectLogs: [],
    photos: [],
    scheduleChanges: [],
    notifications: [],
    subcontractorAssignments: [],
    riskAssessments: [],
    healthCheckTemplates: [],
    communications: [],
    changeOrders: [],
    timeEntries: [],
    invoices: [],
    healthChecks: [],
    handovers: [],
  };
  private readonly rng = makeRng(20_260_315);
  private readonly todayStart: number;
  private photoNumber = 2041;
  private nextPhoto = 0;

  constructor(
    private readonly nowMs: number,
    private readonly ids: Identities,
    private readonly drawn: readonly DemoPhoto[],
  ) {
    const d = new Date(nowMs);
    this.todayStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  }

  /** A due time on a calendar day relative to today (UTC), during the working day. */
  private dayAt(offsetDays: number, hourUtc: number): number {
    return this.todayStart + offsetDays * DAY + hourUtc * HOUR;
  }

  private dayOffset(ms: number): number {
    return Math.floor((ms - this.todayStart) / DAY);
  }

  /** A moment earlier today, never in the future and never before midnight. */
  private earlierToday(minutesAgo: number): number {
    return clamp(this.nowMs - minutesAgo * MINUTE, this.todayStart + MINUTE, this.nowMs - MINUTE);
  }

  build(tenantSpecs: readonly TenantSpec[], rootId: string): DemoPlan {
    const tenants = tenantSpecs.map((spec, i) => this.tenant(spec, identityTimes(this.nowMs, i).companyMs));
    for (const t of tenants) {
      for (const p of t.spec.projects) this.project(t, p);
      for (const p of t.projects) this.projectTasks(t, p);
      this.fixedTasks(t);
      this.assignments(t);
      for (const [i, p] of t.projects.entries()) this.projectPhotos(t, p, i);
      for (const [i, p] of t.projects.entries()) this.projectLogs(t, p, i);
      this.scheduleChanges(t);
      this.invoices(t);
      this.changeOrders(t);
      this.communications(t);
      this.risks(t);
      this.timeEntries(t);
      for (const [i, p] of t.projects.entries()) {
        this.data.healthChecks.push({
          projectId: p.row.id,
          managerId: t.manager.id,
          at: iso(this.nowMs - (i + 1) * 2 * HOUR),
        });
      }
      this.healthTemplates(t);
      this.notifications(t);
    }
    this.rootNotifications({ id: rootId });
    return this.data;
  }

  private tenant(spec: TenantSpec, createdMs: number): Tenant {
    const company = { id: this.ids.companyId(spec), createdAt: iso(createdMs) };
    const people = spec.people.map((p) => ({
      ...p,
      id: this.ids.userId(p.email),
      name: `${p.firstName} ${p.lastName}`,
    }));
    const byKind = (kind: RoleKind) => {
      const found = people.find((p) => p.kind === kind);
      if (!found) throw new Error(`${spec.name} has no ${kind}`);
      return found;
    };
    const t: Tenant = {
      spec,
      company,
      people,
      admin: byKind('admin'),
      manager: byKind('manager'),
      crew: byKind('crew'),
      field: people.filter((p) => p.kind === 'crew' || p.kind === 'manager'),
      projects: [],
      person: (email) => {
        const found = people.find((p) => p.email === email);
        if (!found) throw new Error(`${spec.name} has no user ${email}`);
        return found;
      },
      project: (key) => {
        const found = t.projects.find((p) => p.spec.key === key);
        if (!found) throw new Error(`${spec.name} has no project ${key}`);
        return found;
      },
    };
    return t;
  }

  // --- field data ---------------------------------------------------------------------------------------

  private project(t: Tenant, spec: ProjectSpec): void {
    const startMs = this.dayAt(spec.startDays, 15);
    const dueMs = this.dayAt(spec.dueDays, 23);
    const row: PlanProject = {
      id: newId(),
      name: spec.name,
      description: spec.description,
      location: spec.location,
      status: spec.status,
      progress: spec.progress,
      dueDate: iso(dueMs),
      budget: spec.budget * 100,
      actualCost: spec.actual * 100,
      clientName: spec.client.name,
      clientEmail: spec.client.email,
      clientPhone: spec.client.phone,
      companyId: t.company.id,
      createdAt: iso(startMs),
      managerId: t.manager.id,
      reportedAt: iso(this.nowMs - (t.projects.length * 19 + 4) * HOUR),
    };
    this.data.projects.push(row);
    t.projects.push({ spec, row, startMs, dueMs });
  }

  private task(
    t: Tenant,
    v: {
      title: string;
      description: string | null;
      project: ProjectCtx | null;
      assignee: Person | null;
      category: string;
      status: TaskStatus;
      priority: Priority;
      dueMs: number | null;
      completedMs: number | null;
      createdMs: number;
      milestone: boolean;
      hours: number | null;
    },
  ): Task {
    const row: Task = {
      id: newId(),
      title: v.title,
      description: v.description,
      projectId: v.project?.row.id ?? null,
      assigneeId: v.assignee?.id ?? null,
      companyId: t.company.id,
      category: v.category,
      status: v.status,
      priority: v.priority,
      dueDate: v.dueMs === null ? null : iso(v.dueMs),
      completedAt: v.completedMs === null ? null : iso(v.completedMs),
      createdAt: iso(v.createdMs),
      isMilestone: v.milestone,
      estimatedHours: v.hours,
      createdBy: t.manager.id,
    };
    this.data.tasks.push(row);
    return row;
  }

  private projectTasks(t: Tenant, p: ProjectCtx): void {
    const { rng } = this;
    const pool = TASK_POOLS[p.spec.pool];
    const n = p.spec.tasks;
    const done = p.spec.status === 'completed' ? n : Math.round((n * p.spec.progress) / 100);
    // The first open tasks sit around today, so the dashboard, crew and schedule screens all have content.
    const current: readonly { offset: number; status: TaskStatus; priority?: Priority; crew?: boolean }[] =
      p.spec.status === 'delayed'
        ? [
            { offset: -9, status: 'blocked', priority: 'critical' },
            { offset: -4, status: 'in-progress', priority: 'high' },
            { offset: 0, status: 'in-progress', crew: true },
            { offset: 1, status: 'pending', crew: true },
          ]
        : [
            { offset: 0, status: 'in-progress', crew: true },
            { offset: 2, status: 'pending' },
            { offset: -3, status: 'in-progress', priority: 'high' },
            { offset: 5, status: 'pending', crew: true },
          ];
    const isFirstProject = t.projects[0] === p;
    for (let i = 0; i < n; i++) {
      const [title, milestone = false] = at(pool, Math.floor((i * pool.length) / n));
      const planned = p.startMs + ((i + 0.5) / n) * (p.dueMs - p.startMs);
      const hour = 15 + (i % 5);
      let status: TaskStatus;
      let priority = rng.pick<Priority>([
        'low',
        'low',
        'medium',
        'medium',
        'medium',
        'medium',
        'high',
        'high',
        'high',
        'critical',
      ]);
      let assignee: Person | null = rng.chance(0.12) ? null : rng.pick(t.field);
      let dueMs: number | null;
      let completedMs: number | null = null;
      const j = i - done;
      if (j < 0) {
        status = 'completed';
        dueMs = this.dayAt(this.dayOffset(Math.min(planned, this.nowMs + (j * 3 - 1) * DAY)), hour);
        completedMs = dueMs + rng.int(-2, 1) * DAY + rng.int(0, 4) * HOUR;
        if (isFirstProject && j === -1) {
          dueMs = this.dayAt(0, 15);
          completedMs = this.earlierToday(90);
          assignee = t.crew;
        }
      } else if (p.spec.status === 'on-hold') {
        status = j === 0 ? 'blocked' : 'pending';
        dueMs =
          j % 4 === 3
            ? null
            : this.dayAt(this.dayOffset(Math.max(planned, this.nowMs + (j + 1) * 7 * DAY)), hour);
      } else if (j < current.length) {
        const c = at(current, j);
        status = c.status;
        dueMs = this.dayAt(c.offset, hour);
        priority = c.priority ?? priority;
        if (c.crew) assignee = t.crew;
      } else {
        status = rng.chance(0.12) ? 'in-progress' : 'pending';
        dueMs =
          j % 5 === 4
            ? null
            : this.dayAt(this.dayOffset(Math.max(planned, this.nowMs + (j - 2) * 4 * DAY)), hour);
      }
      let createdMs = p.startMs + (i / n) * 0.6 * (this.nowMs - p.startMs);
      if (dueMs !== null) createdMs = Math.min(createdMs, dueMs - 3 * DAY);
      createdMs = Math.min(Math.max(createdMs, p.startMs), this.nowMs - 2 * HOUR);
      if (completedMs !== null) completedMs = clamp(completedMs, createdMs + HOUR, this.nowMs - MINUTE);
      this.task(t, {
        title,
        description: rng.chance(0.8) ? `${title}. ${rng.pick(TASK_NOTES)}` : null,
        project: p,
        assignee,
        category: 'project',
        status,
        priority,
        dueMs,
        completedMs,
        createdMs,
        milestone,
        hours: rng.chance(0.1) ? null : rng.pick([2, 4, 6, 8, 12, 16, 24, 32, 40]),
      });
    }
  }

  private fixedTasks(t: Tenant): void {
    for (const [i, f] of t.spec.fixedTasks.entries()) {
      const dueMs = f.due === null ? null : this.dayAt(f.due, 16 + (i % 4));
      let createdMs = this.nowMs - this.rng.int(4, 21) * DAY;
      if (dueMs !== null) createdMs = Math.min(createdMs, dueMs - 2 * DAY);
      const completedMs =
        f.status === 'completed' ? Math.min((dueMs ?? this.nowMs) - 3 * HOUR, this.nowMs - HOUR) : null;
      this.task(t, {
        title: f.title,
        description: f.description ?? null,
        project: f.project ? t.project(f.project) : null,
        assignee: f.who ? t.person(f.who) : null,
        category: f.category,
        status: f.status,
        priority: f.priority,
        dueMs,
        completedMs,
        createdMs,
        milestone: f.milestone ?? false,
        hours: f.hours ?? null,
      });
    }
  }

  private assignments(t: Tenant): void {
    for (const a of t.spec.assignments) {
      const sub = t.person(a.sub);
      const p = t.project(a.project);
      const startMs = p.startMs + 20 * DAY;
      this.data.subcontractorAssignments.push({
        id: newId(),
        version: 0,
        subcontractorId: sub.id,
        projectId: p.row.id,
        companyId: t.company.id,
        assignedBy: t.manager.id,
        startDate: iso(startMs),
        endDate: iso(p.dueMs),
        specialization: sub.trade ?? null,
        status: a.status,
        createdAt: iso(startMs - 7 * DAY),
      });
    }
  }

  private subsOf(t: Tenant, p: ProjectCtx): Person[] {
    return t.spec.assignments.filter((a) => a.project === p.spec.key).map((a) => t.person(a.sub));
  }

  private projectPhotos(t: Tenant, p: ProjectCtx, index: number): void {
    const pool = PHOTO_POOLS[p.spec.pool];
    const endMs = Math.min(this.nowMs - 2 * HOUR, p.spec.status === 'completed' ? p.dueMs : this.nowMs);
    const takers = [...t.field, ...this.subsOf(t, p)];
    const live = p.spec.status === 'active' || p.spec.status === 'delayed';
    for (let k = 0; k < p.spec.photos; k++) {
      const [description, tags] = at(pool, k + index);
      // Drawn (and stored) before the write transaction, in this same order: see drawDemoPhotos.
      const drawn = this.drawn[this.nextPhoto++];
      if (!drawn) throw new Error('Fewer drawn photos than the tenants plan');
      const { id, key, bytes, sha256 } = drawn;
      const createdMs =
        live && k < 2
          ? this.earlierToday((index + 1) * 37 + k * 11)
          : p.startMs + ((k + 1) / (p.spec.photos + 1)) * (endMs - p.startMs);
      const taker = this.rng.pick(takers);
      this.data.photos.push({
        id,
        projectId: p.row.id,
        userId: taker.id,
        companyId: t.company.id,
        filename: key,
        originalName: `IMG_${this.photoNumber++}.jpg`,
        description,
        tags: [...tags],
        sha256,
        mimeType: 'image/jpeg',
        sizeBytes: bytes.byteLength,
        blobStatus: 'present',
        // Demo photos are taken on site and uploaded at once.
        capturedAt: iso(createdMs),
        createdAt: iso(createdMs),
      });
    }
  }

  private projectLogs(t: Tenant, p: ProjectCtx, index: number): void {
    const projectPhotos = this.data.photos.filter((ph) => ph.projectId === p.row.id);
    const writers = [...t.field, ...this.subsOf(t, p)];
    const endMs = p.spec.status === 'completed' ? p.dueMs : this.nowMs;
    for (let k = 0; k < t.spec.logsPerProject; k++) {
      const type = at(LOG_TYPE_ORDER, k + index);
      const seq = this.data.projectLogs.filter((l) => l.type === type).length;
      const [title, content] = at(LOG_TEMPLATES[type], seq);
      const status = p.spec.status === 'completed' ? 'closed' : at(LOG_STATUS_CYCLE[type], seq);
      const createdMs =
        k === 0 && p.spec.status !== 'completed'
          ? this.earlierToday((index + 1) * 45)
          : Math.max(p.startMs + DAY, endMs - (k * 6 + this.rng.int(0, 4)) * DAY - this.rng.int(1, 9) * HOUR);
      // Every other log carries one to three photos of its own project.
      const images =
        (k + index) % 2 === 0 && projectPhotos.length > 0
          ? Array.from({ length: 1 + ((k + index) % 3) }, (_, n) => at(projectPhotos, k * 2 + n))
              .filter((ph, n, all) => all.indexOf(ph) === n)
              .map((ph) => photoFileUrl(ph.id))
          : [];
      const writer = this.rng.pick(writers);
      this.data.projectLogs.push({
        id: newId(),
        projectId: p.row.id,
        userId: writer.id,
        companyId: t.company.id,
        title,
        content,
        type,
        status,
        images,
        createdAt: iso(createdMs),
      });
    }
  }

  private tasksOf(t: Tenant): Task[] {
    return this.data.tasks.filter((x) => x.companyId === t.company.id);
  }

  private scheduleChanges(t: Tenant): void {
    const open = this.tasksOf(t).filter(
      (x) => x.dueDate !== null && x.status !== 'completed' && x.projectId !== null,
    );
    const mine = open.filter((x) => x.assigneeId === t.crew.id);
    const others = open.filter((x) => x.assigneeId !== t.crew.id);
    const picks = [...mine.slice(0, 5), ...others].slice(0, t.spec.scheduleChanges.length);
    for (const [i, s] of t.spec.scheduleChanges.entries()) {
      const task = at(picks, i);
      const dueMs = Date.parse(task.dueDate ?? '');
      const shift = 1 + ((i * 3) % 7);
      const createdMs = this.nowMs - (i + 1) * 26 * HOUR;
      const decided = s.status !== 'pending';
      const assignee = t.people.find((p) => p.id === task.assigneeId);
      const requester =
        assignee && (assignee.kind === 'crew' || assignee.kind === 'subcontractor') ? assignee.id : t.crew.id;
      // An approved change already moved the task, so its new date is the task's current due date; an open
      // request asks for a date after today even when the task is already overdue.
      const [originalMs, newMs] =
        s.status === 'approved'
          ? [dueMs - shift * DAY, dueMs]
          : [dueMs, this.dayAt(Math.max(this.dayOffset(dueMs), 0) + shift, new Date(dueMs).getUTCHours())];
      this.data.scheduleChanges.push({
        id: newId(),
        taskId: task.id,
        userId: requester,
        companyId: t.company.id,
        reason: s.reason,
        originalDate: iso(originalMs),
        newDate: iso(newMs),
        status: s.status,
        decidedBy: decided ? t.manager.id : null,
        decidedAt: decided ? iso(createdMs + 6 * HOUR) : null,
        createdAt: iso(createdMs),
      });
    }
  }

  // --- office data --------------------------------------------------------------------------------------

  private invoices(t: Tenant): void {
    const year = new Date(this.nowMs).getUTCFullYear();
    for (const [i, s] of t.spec.invoices.entries()) {
      const p = t.project(s.project);
      const labor = s.labor * 100;
      const materials = s.materials * 100;
      const amount = labor + materials;
      const tax = Math.round(materials * t.spec.taxRate);
      const dueMs = this.dayAt(s.due, 23);
      const createdMs = Math.min(dueMs - 30 * DAY, this.nowMs - DAY);
      const paidMs = s.status === 'paid' ? Math.min(dueMs - 2 * DAY, this.nowMs - HOUR) : null;
      this.data.invoices.push({
        id: newId(),
        companyId: t.company.id,
        projectId: p.row.id,
        invoiceNumber: `${t.spec.prefix}-${year}-${String(i + 1).padStart(3, '0')}`,
        clientName: p.spec.client.name,
        clientEmail: p.spec.client.email,
        amount,
        tax,
        total: amount + tax,
        status: s.status,
        dueDate: iso(dueMs),
        paidAt: paidMs === null ? null : iso(paidMs),
        items: [
          {
            description: `Progress billing, pay application #${i + 3}: labor and equipment`,
            quantity: 1,
            unitPrice: labor,
          },
          { description: 'Materials and stored materials', quantity: 1, unitPrice: materials },
        ],
        notes: 'Net 30. Retainage of 5% held per contract.',
        createdAt: iso(createdMs),
        updatedAt: iso(paidMs ?? (s.status === 'sent' ? createdMs + DAY : createdMs)),
      });
    }
  }

  private changeOrders(t: Tenant): void {
    for (const s of t.spec.changeOrders) {
      const createdMs = this.nowMs - s.ago * DAY - 3 * HOUR;
      const decidedMs = s.status === 'pending' ? null : createdMs + 2 * DAY;
      const approver = t.spec.changeOrders.indexOf(s) % 2 === 0 ? t.manager : t.admin;
      this.data.changeOrders.push({
        id: newId(),
        projectId: t.project(s.project).row.id,
        companyId: t.company.id,
        requestedBy: t.person(s.by).id,
        title: s.title,
        description: s.description,
        costImpact: s.cost * 100,
        timeImpact: s.days,
        status: s.status,
        createdAt: iso(createdMs),
        decidedBy: decidedMs === null ? null : approver.id,
        decidedAt: decidedMs === null ? null : iso(decidedMs),
      });
    }
  }

  private communications(t: Tenant): void {
    for (const s of t.spec.communications) {
      const p = t.project(s.project);
      const from = s.from === 'client' ? null : t.person(s.from);
      const to = s.to === 'client' ? null : t.person(s.to);
      const createdMs = this.nowMs - s.hoursAgo * HOUR;
      this.data.communications.push({
        id: newId(),
        projectId: p.row.id,
        companyId: t.company.id,
        fromUserId: from?.id ?? null,
        fromEmail: from?.email ?? p.spec.client.email,
        fromName: from?.name ?? p.spec.client.name,
        toUserId: to?.id ?? null,
        toEmail: to?.email ?? p.spec.client.email,
        subject: s.subject,
        message: s.message,
        type: s.type,
        status: s.status,
        attachments: [],
        priority: s.priority,
        createdAt: iso(createdMs),
        updatedAt: iso(s.status === 'open' ? createdMs : Math.min(createdMs + 5 * HOUR, this.nowMs)),
      });
    }
  }

  private risks(t: Tenant): void {
    for (const [i, s] of t.spec.risks.entries()) {
      const createdMs = this.nowMs - (12 + i * 5) * DAY;
      this.data.riskAssessments.push({
        id: newId(),
        projectId: t.project(s.project).row.id,
        companyId: t.company.id,
        riskType: s.type,
        riskTitle: s.title,
        riskDescription: s.description,
        probability: s.probability,
        impact: s.impact,
        status: s.status,
        mitigationPlan: s.mitigation,
        assignedTo: t.person(s.assignee).id,
        identifiedBy: t.manager.id,
        dueDate: iso(this.dayAt(s.due, 23)),
        createdAt: iso(createdMs),
      });
    }
  }

  private timeEntries(t: Tenant): void {
    // The crew member first: the one entry still running (clocked in now) is theirs.
    const workers = [
      t.crew,
      ...t.field.filter((p) => p !== t.crew),
      ...t.people.filter((p) => p.kind === 'subcontractor'),
    ];
    const rate: Partial<Record<RoleKind, number>> = { crew: 4250, manager: 6800, subcontractor: 9500 };
    const workdays: number[] = [];
    for (let back = 1; workdays.length < 12; back++) {
      const day = new Date(this.todayStart - back * DAY).getUTCDay();
      if (day !== 0 && day !== 6) workdays.push(back);
    }
    const live = t.projects.filter((p) => p.spec.status === 'active' || p.spec.status === 'delayed');
    const hoursCycle = [8, 7.5, 9, 6, 10, 8.5];
    for (let k = 0; k < t.spec.timeEntries; k++) {
      const worker = at(workers, k);
      const subProjects = t.spec.assignments
        .filter((a) => a.sub === worker.email && a.status === 'active')
        .map((a) => t.project(a.project));
      const p = at(subProjects.length > 0 ? subProjects : live, k);
      // Hours go to the work in hand: the worker's own open task, else any open task of the project.
      const openTasks = this.data.tasks.filter((x) => x.projectId === p.row.id && x.status !== 'completed');
      const task = openTasks.find((x) => x.assigneeId === worker.id) ?? at(openTasks, k);
      const running = k === 0;
      const back = at(workdays, Math.floor(k / workers.length));
      const startMs = running
        ? this.nowMs - 3 * HOUR
        : this.todayStart - back * DAY + t.spec.workdayStartUtc * HOUR;
      const hours = at(hoursCycle, k);
      const training = k % 7 === 6;
      this.data.timeEntries.push({
        id: newId(),
        companyId: t.company.id,
        userId: worker.id,
        projectId: p.row.id,
        taskId: training ? null : task.id,
        description: training ? 'Safety training: fall protection refresher' : task.title,
        startTime: iso(startMs),
        endTime: running ? null : iso(startMs + hours * HOUR),
        totalHours: running ? null : hours,
        hourlyRate: rate[worker.kind] ?? null,
        billable: !training,
        approved: !running && back >= 3,
        approvedBy: !running && back >= 3 ? t.manager.id : null,
        createdAt: iso(startMs),
      });
    }
  }

  private healthTemplates(t: Tenant): void {
    for (const [i, h] of HEALTH_TEMPLATES.entries()) {
      this.data.healthCheckTemplates.push({
        id: newId(),
        companyId: t.company.id,
        name: h.name,
        description: h.description,
        criteria: h.criteria,
        isActive: i === 0 || t.spec.tier !== 'basic',
        createdAt: t.company.createdAt,
      });
    }
  }

  // --- notifications ------------------------------------------------------------------------------------

  /** A notification no mutator sends (money, inspections, announcements); read state: see write.ts. */
  private notify(
    user: { id: string },
    n: {
      type: 'info' | 'warning' | 'success' | 'error';
      title: string;
      message: string;
      minutesAgo: number;
    },
    related?: { type: string; id: string },
  ): void {
    this.data.notifications.push({
      userId: user.id,
      title: n.title,
      message: n.message,
      type: n.type,
      relatedEntityType: related?.type,
      relatedEntityId: related?.id,
      createdAt: iso(this.nowMs - n.minutesAgo * MINUTE),
    });
  }

  private notifications(t: Tenant): void {
    const taskOf = (who: Person, pred: (x: Task) => boolean) =>
      this.tasksOf(t).find((x) => x.assigneeId === who.id && pred(x));
    // Due before today: a task due earlier today is "due today" on every screen, not overdue.
    const overdue = (x: Task) =>
      x.status !== 'completed' && x.dueDate !== null && this.dayOffset(Date.parse(x.dueDate)) < 0;
    const projectName = (id: string | null) =>
      t.projects.find((p) => p.row.id === id)?.spec.name ?? 'a project';
    const invoicesOf = this.data.invoices.filter((x) => x.companyId === t.company.id);
    const late = invoicesOf.find((x) => x.status === 'sent' && Date.parse(x.dueDate ?? '') < this.nowMs);
    const paid = invoicesOf.filter((x) => x.status === 'paid').at(-1);
    const overBudget = t.projects.find((p) => p.spec.actual > p.spec.budget);

    // Admins: money.
    if (late) {
      const days = Math.floor((this.nowMs - Date.parse(late.dueDate ?? '')) / DAY);
      this.notify(
        t.admin,
        {
          type: 'warning',
          title: 'Invoice overdue',
          message: `Invoice ${late.invoiceNumber} (${formatCents(late.total)}) to ${late.clientName ?? 'the client'} is ${days} days overdue.`,
          minutesAgo: 45,
        },
        { type: 'invoice', id: late.id },
      );
    }
    if (overBudget) {
      const pct = Math.round((overBudget.spec.actual / overBudget.spec.budget - 1) * 100);
      this.notify(
        t.admin,
        {
          type: 'error',
          title: 'Project over budget',
          message: `${overBudget.spec.name} is ${pct}% over its budget.`,
          minutesAgo: 60 * 26,
        },
        { type: 'project', id: overBudget.row.id },
      );
    }
    if (paid)
      this.notify(
        t.admin,
        {
          type: 'success',
          title: 'Payment received',
          message: `Invoice ${paid.invoiceNumber} was paid in full (${formatCents(paid.total)}).`,
          minutesAgo: 60 * 24 * 4,
        },
        { type: 'invoice', id: paid.id },
      );

    // Manager: their own late work and the site's inspections.
    const managerLate = taskOf(t.manager, overdue);
    if (managerLate)
      this.notify(
        t.manager,
        {
          type: 'warning',
          title: 'Task overdue',
          message: `“${managerLate.title}” was due ${shortDate(Date.parse(managerLate.dueDate ?? ''))}.`,
          minutesAgo: 120,
        },
        { type: 'task', id: managerLate.id },
      );
    const inspected = at(t.projects, 0);
    const inspection =
      inspected.spec.pool === 'civil' ? 'rebar inspection at the pile caps' : 'firestopping inspection';
    this.notify(
      t.manager,
      {
        type: 'error',
        title: 'Inspection failed',
        message: `The inspector failed the ${inspection} on ${inspected.spec.name}. Re-inspection needed.`,
        minutesAgo: 60 * 30,
      },
      { type: 'project', id: inspected.row.id },
    );

    // Crew: their own work. The manager hands one of today's tasks to the crew member twenty minutes ago
    // (write.ts assigns it through the task mutator, which sends the 'Task assigned' notification).
    const crewToday = taskOf(
      t.crew,
      (x) => x.status !== 'completed' && this.dayOffset(Date.parse(x.dueDate ?? '')) === 0,
    );
    if (crewToday) {
      this.data.handovers.push({
        taskId: crewToday.id,
        assigneeId: t.crew.id,
        by: t.manager.id,
        at: iso(this.nowMs - 20 * MINUTE),
      });
    }
    const crewLate = taskOf(t.crew, overdue);
    if (crewLate)
      this.notify(
        t.crew,
        {
          type: 'warning',
          title: 'Task overdue',
          message: `“${crewLate.title}” was due ${shortDate(Date.parse(crewLate.dueDate ?? ''))}.`,
          minutesAgo: 95,
        },
        { type: 'task', id: crewLate.id },
      );
    this.notify(t.crew, {
      type: 'info',
      title: 'Safety stand-down on Friday',
      message: 'All crews meet at the yard at 7 am for the quarterly safety stand-down.',
      minutesAgo: 60 * 48,
    });

    // Subcontractors: assignments and messages.
    for (const sub of t.people.filter((p) => p.kind === 'subcontractor').slice(0, 1)) {
      const a = this.data.subcontractorAssignments.find(
        (x) => x.subcontractorId === sub.id && x.status === 'active',
      );
      if (a)
        this.notify(
          sub,
          {
            type: 'info',
            title: 'Added to a project',
            message: `You were assigned to ${projectName(a.projectId)} (${sub.trade ?? 'trade work'}).`,
            minutesAgo: 60 * 24 * 12,
          },
          { type: 'project', id: a.projectId },
        );
      const late = taskOf(sub, overdue);
      if (late)
        this.notify(
          sub,
          {
            type: 'warning',
            title: 'Task overdue',
            message: `“${late.title}” was due ${shortDate(Date.parse(late.dueDate ?? ''))}.`,
            minutesAgo: 75,
          },
          { type: 'task', id: late.id },
        );
      const reply = this.data.communications.find(
        (x) => x.companyId === t.company.id && x.fromUserId === sub.id,
      );
      if (reply)
        this.notify(
          sub,
          {
            type: 'info',
            title: 'New reply',
            message: `${t.manager.name} replied to “${reply.subject}”.`,
            minutesAgo: 15,
          },
          { type: 'communication', id: reply.id },
        );
    }
  }

  private rootNotifications(root: { id: string }): void {
    this.notify(root, {
      type: 'info',
      title: 'New company onboarded',
      message: 'Harbor Construction started a Basic subscription.',
      minutesAgo: 60 * 24 * 9,
    });
    this.notify(root, {
      type: 'success',
      title: 'Nightly backup completed',
      message: 'The database backup finished and was copied off-site.',
      minutesAgo: 60 * 5,
    });
    this.notify(root, {
      type: 'warning',
      title: 'Photo storage at 72%',
      message: 'Summit Builders is using 72% of its photo storage allowance.',
      minutesAgo: 60 * 2,
    });
  }
}
