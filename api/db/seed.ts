import crypto from 'node:crypto';
import { and, eq, notInArray } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { ROLE_KINDS, type RoleKind } from '../../shared/enums.ts';
import { PLATFORM_COMPANY_ID, newId } from '../../shared/ids.ts';
import { PERMISSIONS, ROLE_TEMPLATES } from '../../shared/permissions.ts';
import { hashPassword } from '../auth/password.ts';
import type { BlobStore } from '../storage/index.ts';
import { writeTx, type Db } from './index.ts';
import {
  changeOrders,
  communications,
  companies,
  healthCheckTemplates,
  invoices,
  notifications,
  permissions,
  photos,
  projectHealthMetrics,
  projectLogs,
  projects,
  riskAssessments,
  rolePermissions,
  roles,
  scheduleChanges,
  subcontractorAssignments,
  tasks,
  timeEntries,
  userActivities,
  users,
} from './schema/index.ts';

// ---------------------------------------------------------------------------------------------------------
// RBAC catalogue
// ---------------------------------------------------------------------------------------------------------

/** Upserts the permission catalogue and the five template roles; safe to run on every start. */
export function seedRbac(db: Db): void {
  writeTx(db, () => applyRbac(db));
}

function applyRbac(db: Db): void {
  db.insert(companies)
    .values({
      id: PLATFORM_COMPANY_ID,
      name: 'SiteCommand Platform',
      domain: 'sitecommand.test',
      settings: { type: 'platform', subscription_tier: 'enterprise' },
      planType: 'enterprise',
    })
    .onConflictDoNothing({ target: companies.id })
    .run();

  for (const p of PERMISSIONS) {
    const cut = p.key.indexOf(':');
    const row = {
      name: p.key,
      resourceType: p.key.slice(0, cut),
      action: p.key.slice(cut + 1),
      category: p.category,
      description: p.description,
    };
    db.insert(permissions).values(row).onConflictDoUpdate({ target: permissions.name, set: row }).run();
  }

  for (const kind of ROLE_KINDS) {
    const t = ROLE_TEMPLATES[kind];
    const row = {
      id: t.id,
      name: t.name,
      description: t.description,
      companyId: kind === 'root' ? PLATFORM_COMPANY_ID : null,
      isTemplate: true,
      kind,
    };
    db.insert(roles).values(row).onConflictDoUpdate({ target: roles.id, set: row }).run();
  }

  const permissionIds = new Map(
    db
      .select({ id: permissions.id, name: permissions.name })
      .from(permissions)
      .all()
      .map((p) => [p.name, p.id]),
  );
  for (const kind of ROLE_KINDS) {
    const t = ROLE_TEMPLATES[kind];
    const wanted = t.permissions.map((key) => {
      const id = permissionIds.get(key);
      if (id === undefined) throw new Error(`Permission ${key} missing after upsert`);
      return id;
    });
    db.delete(rolePermissions)
      .where(and(eq(rolePermissions.roleId, t.id), notInArray(rolePermissions.permissionId, wanted)))
      .run();
    db.insert(rolePermissions)
      .values(wanted.map((permissionId) => ({ roleId: t.id, permissionId })))
      .onConflictDoNothing()
      .run();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Demo accounts
// ---------------------------------------------------------------------------------------------------------

export const DEMO_PASSWORD = 'sitecommand-demo';

export interface DemoAccount {
  email: string;
  role: RoleKind;
  company: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: 'root@sitecommand.test', role: 'root', company: 'SiteCommand Platform' },
  { email: 'admin@summit.test', role: 'admin', company: 'Summit Builders' },
  { email: 'manager@summit.test', role: 'manager', company: 'Summit Builders' },
  { email: 'crew@summit.test', role: 'crew', company: 'Summit Builders' },
  { email: 'sub@summit.test', role: 'subcontractor', company: 'Summit Builders' },
  { email: 'admin@harbor.test', role: 'admin', company: 'Harbor Construction' },
  { email: 'crew@harbor.test', role: 'crew', company: 'Harbor Construction' },
];

/** Its presence means the demo data is already there (or was, and someone kept the admin). */
const SEED_MARKER_EMAIL = 'admin@summit.test';

// ---------------------------------------------------------------------------------------------------------
// Row types and small deterministic helpers
// ---------------------------------------------------------------------------------------------------------

type Company = typeof companies.$inferSelect;
type User = typeof users.$inferSelect;
type Project = typeof projects.$inferSelect;
type Task = typeof tasks.$inferSelect;
type ProjectLog = typeof projectLogs.$inferSelect;
type Photo = typeof photos.$inferSelect;
type ScheduleChange = typeof scheduleChanges.$inferSelect;
type UserActivity = typeof userActivities.$inferSelect;
type Notification = typeof notifications.$inferSelect;
type SubcontractorAssignment = typeof subcontractorAssignments.$inferSelect;
type ProjectHealthMetric = typeof projectHealthMetrics.$inferSelect;
type RiskAssessment = typeof riskAssessments.$inferSelect;
type HealthCheckTemplate = typeof healthCheckTemplates.$inferSelect;
type Communication = typeof communications.$inferSelect;
type ChangeOrder = typeof changeOrders.$inferSelect;
type TimeEntry = typeof timeEntries.$inferSelect;
type Invoice = typeof invoices.$inferSelect;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

function at<T>(items: readonly T[], i: number): T {
  const v = items[((i % items.length) + items.length) % items.length];
  if (v === undefined) throw new Error('at(): empty list');
  return v;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

function makeRng(seed: number): Rng {
  const next = mulberry32(seed);
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => at(items, Math.floor(next() * items.length)),
    chance: (p) => next() < p,
  };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const iso = (ms: number) => new Date(ms).toISOString();
const dollars = (cents: number) => `$${Math.round(cents / 100).toLocaleString('en-US')}`;
const shortDate = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

// ---------------------------------------------------------------------------------------------------------
// Static demo content
// ---------------------------------------------------------------------------------------------------------

interface PersonSpec {
  email: string;
  firstName: string;
  lastName: string;
  kind: RoleKind;
  trade?: string;
}

type Pool = 'building' | 'renovation' | 'civil';
type ProjectStatus = 'active' | 'completed' | 'delayed' | 'on-hold';
type TaskStatus = 'pending' | 'in-progress' | 'completed' | 'blocked';
type Priority = 'low' | 'medium' | 'high' | 'critical';
type Level3 = 'low' | 'medium' | 'high';

interface ProjectSpec {
  key: string;
  name: string;
  description: string;
  location: string;
  status: ProjectStatus;
  progress: number;
  startDays: number;
  dueDays: number;
  /** whole dollars; stored as cents */
  budget: number;
  actual: number;
  client: { name: string; email: string; phone: string };
  pool: Pool;
  tasks: number;
  photos: number;
}

interface FixedTask {
  title: string;
  description?: string;
  category: 'administrative' | 'general' | 'subcontractor';
  project?: string;
  who: string | null;
  /** days from today; null = no due date */
  due: number | null;
  status: TaskStatus;
  priority: Priority;
  milestone?: boolean;
  hours?: number;
}

interface InvoiceSpec {
  project: string;
  status: 'draft' | 'sent' | 'paid';
  due: number;
  labor: number;
  materials: number;
}

interface ChangeOrderSpec {
  project: string;
  by: string;
  title: string;
  description: string;
  cost: number;
  days: number;
  status: 'pending' | 'approved' | 'rejected';
  ago: number;
}

interface CommunicationSpec {
  project: string;
  /** a user's email, or 'client' for the project's client */
  from: string;
  to: string;
  subject: string;
  message: string;
  type: 'message' | 'dispute' | 'invoice';
  priority: 'urgent' | 'high' | 'normal' | 'low';
  status: 'open' | 'pending' | 'resolved';
  hoursAgo: number;
}

interface RiskSpec {
  project: string;
  type: 'schedule' | 'budget' | 'quality' | 'resource' | 'weather' | 'safety';
  title: string;
  description: string;
  probability: Level3;
  impact: Level3;
  status: 'identified' | 'monitoring' | 'mitigated' | 'closed';
  mitigation: string;
  assignee: string;
  due: number;
}

interface AssignmentSpec {
  sub: string;
  project: string;
  status: 'active' | 'completed';
}

interface TenantSpec {
  name: string;
  domain: string;
  prefix: string;
  tier: 'professional' | 'basic';
  address: string;
  phone: string;
  email: string;
  website: string;
  /** sales tax on materials, for invoices */
  taxRate: number;
  /** 7 am local, in UTC hours */
  workdayStartUtc: number;
  people: readonly PersonSpec[];
  projects: readonly ProjectSpec[];
  fixedTasks: readonly FixedTask[];
  assignments: readonly AssignmentSpec[];
  logsPerProject: number;
  scheduleChanges: readonly { reason: string; status: 'pending' | 'approved' | 'rejected' }[];
  invoices: readonly InvoiceSpec[];
  changeOrders: readonly ChangeOrderSpec[];
  communications: readonly CommunicationSpec[];
  risks: readonly RiskSpec[];
  timeEntries: number;
  activities: number;
}

const ROOT_PERSON: PersonSpec = {
  email: 'root@sitecommand.test',
  firstName: 'Alex',
  lastName: 'Morgan',
  kind: 'root',
};

type TaskTemplate = readonly [title: string, milestone?: boolean];

const TASK_POOLS: Record<Pool, readonly TaskTemplate[]> = {
  building: [
    ['Site survey and layout staking'],
    ['Install erosion control and silt fence'],
    ['Excavate footings'],
    ['Form and pour spread footings'],
    ['Foundation wall formwork'],
    ['Foundation inspection', true],
    ['Waterproof foundation walls'],
    ['Backfill and compaction testing'],
    ['Underground plumbing rough-in'],
    ['Vapor barrier and slab-on-grade pour'],
    ['Structural steel erection'],
    ['Metal deck and shear studs'],
    ['Level 2 slab pour'],
    ['Roof framing and sheathing'],
    ['Building dried in', true],
    ['Window and storefront installation'],
    ['Electrical rough-in'],
    ['HVAC ductwork rough-in'],
    ['Fire sprinkler rough-in'],
    ['MEP rough-in inspection', true],
    ['Insulation and cover inspection'],
    ['Hang drywall'],
    ['Tape, mud and sand drywall'],
    ['Prime and paint interiors'],
    ['Flooring installation'],
    ['Casework and millwork installation'],
    ['Site paving and striping'],
    ['Landscaping and irrigation'],
    ['Punch list walkthrough'],
    ['Certificate of occupancy', true],
  ],
  renovation: [
    ['Hazardous materials survey'],
    ['Asbestos abatement'],
    ['Selective demolition'],
    ['Temporary shoring and protection'],
    ['Reinforce existing roof beams'],
    ['Replace roof membrane'],
    ['Demolition complete', true],
    ['Electrical service upgrade'],
    ['Replace rooftop HVAC units'],
    ['Fire alarm system upgrade'],
    ['Rebuild ADA restrooms'],
    ['New partitions and drywall'],
    ['Flooring installation'],
    ['LED lighting retrofit'],
    ['Paint and wall finishes'],
    ['HVAC test and balance'],
    ['Punch list and closeout'],
    ['Owner turnover', true],
  ],
  civil: [
    ['Mobilize and install site fencing'],
    ['Traffic control plan approval'],
    ['Install dewatering system'],
    ['Excavation and sheet pile shoring'],
    ['Drive test piles'],
    ['Production pile driving'],
    ['Pile capacity verified', true],
    ['Rebar placement and inspection'],
    ['Pour pile caps'],
    ['Cast-in-place walls'],
    ['Erect precast elements'],
    ['Structure complete', true],
    ['Backfill and compaction tests'],
    ['Process piping installation'],
    ['Electrical and controls'],
    ['Joint sealants and waterproofing'],
    ['Startup and performance testing'],
    ['Demobilize and restore site', true],
  ],
};

const TASK_NOTES = [
  'Verify dimensions against the latest drawing revision before starting.',
  'Coordinate access with the superintendent the day before.',
  'Photos required at completion.',
  'Special inspector sign-off required.',
  'Check the look-ahead schedule for crane time.',
  'Materials staged at the north laydown area.',
];

const LOG_TEMPLATES: Record<
  'general' | 'issue' | 'milestone' | 'safety',
  readonly (readonly [string, string])[]
> = {
  general: [
    [
      'Daily report: concrete placement',
      'Placed 42 CY of 4000 psi mix at the east footings. Testing agency took slump and cylinders. Crew of 9 on site, clear, 48°F at start.',
    ],
    [
      'Weekly progress summary',
      'Framing and MEP rough-in on schedule. Two RFIs outstanding with the architect. Next week: drywall delivery and level 2 inspections.',
    ],
    [
      'Owner walkthrough notes',
      'Owner rep walked the site with the PM. Asked for finish sample boards and a revised three-week look-ahead by Friday.',
    ],
    [
      'Material delivery received',
      'Two trucks of rebar and the first anchor bolt shipment received. Checked against the packing list: 6 bundles short, supplier notified.',
    ],
    [
      'Trade coordination meeting',
      'Electrical, plumbing and HVAC reviewed ceiling-space conflicts. Routing agreed; updated coordination model to be issued Monday.',
    ],
  ],
  issue: [
    [
      'Rebar spacing out of tolerance at grid C-4',
      'Special inspector flagged #5 bars at 14" o.c. where the drawings call for 12". Adding bars before the pour; re-inspection requested.',
    ],
    [
      'Water intrusion at north stair',
      'Standing water after overnight rain: the temporary membrane at the stair opening failed. Pumped out and re-taped; permanent flashing pending.',
    ],
    [
      'RFI 14: duct conflicts with beam',
      'Main supply duct at corridor 2B clashes with the W18 beam. RFI sent with two reroute options; waiting on the engineer of record.',
    ],
    [
      'Late delivery of storefront glazing',
      'Supplier pushed delivery three weeks. Entrance stays open; temporary enclosure ordered to keep interior work going.',
    ],
    [
      'Damaged conduit found after backfill',
      'Two 2" conduits crushed near the transformer pad. Hand-excavating to expose and replace them before energizing.',
    ],
    [
      'Inspection failed: firestopping',
      'Inspector rejected penetrations at the rated corridor wall. Sub to redo sealant at 11 locations and call for re-inspection.',
    ],
  ],
  milestone: [
    [
      'Foundation inspection passed',
      'City inspector signed off footings and walls. Cleared to backfill and start slab prep.',
    ],
    [
      'Structure topped out',
      'Final beam set at roof level. Zero lost-time incidents to date; short ceremony with the owner.',
    ],
    [
      'Building dried in',
      'Roof membrane and windows complete. Interior trades can proceed without weather protection.',
    ],
    [
      'Permanent power energized',
      'Utility set the meter and the main switchgear is live. Temporary generator released.',
    ],
  ],
  safety: [
    [
      'Toolbox talk: fall protection',
      'Reviewed the 6-foot rule, anchor points and harness inspection. 14 attendees signed in.',
    ],
    [
      'Near miss: unsecured ladder',
      'Extension ladder slid at the slab edge; nobody hurt. Ladders are now tied off at the top; all trades reminded.',
    ],
    [
      'Heat illness prevention',
      'High of 94°F forecast. Water, shade and hourly rest breaks; crew start moved to 6 am.',
    ],
    [
      'Safety walk findings',
      'Missing guardrail at the elevator shaft and two extension cords with damaged jackets. Both corrected the same day.',
    ],
    [
      'Excavation competent-person check',
      'Utility trench inspected before entry. Sloping adequate; spoil pile moved 2 ft back from the edge.',
    ],
  ],
};

const LOG_TYPE_ORDER = ['general', 'issue', 'safety', 'milestone', 'issue'] as const;
const LOG_STATUS_CYCLE: Record<keyof typeof LOG_TEMPLATES, readonly string[]> = {
  general: ['closed', 'resolved', 'open'],
  issue: ['open', 'in-progress', 'resolved', 'open', 'in-progress', 'closed'],
  milestone: ['closed', 'resolved'],
  safety: ['open', 'closed', 'resolved', 'in-progress'],
};

type PhotoTemplate = readonly [description: string, tags: readonly string[]];

const PHOTO_POOLS: Record<Pool, readonly PhotoTemplate[]> = {
  building: [
    ['Footing excavation at grid line A', ['foundation', 'excavation']],
    ['Rebar inspection before slab pour', ['concrete', 'rebar', 'inspection']],
    ['Slab pour, level 1', ['concrete', 'slab']],
    ['Steel erection, east elevation', ['steel', 'structure']],
    ['Roof framing progress', ['framing', 'roof']],
    ['MEP rough-in in the corridor', ['mep', 'electrical', 'plumbing', 'inspection']],
    ['Drywall progress, level 2', ['interior', 'drywall']],
    ['Exterior envelope, north side', ['exterior', 'envelope']],
    ['Site paving and striping', ['site', 'paving']],
    ['Punch list: door hardware', ['punch-list', 'interior']],
  ],
  renovation: [
    ['Existing conditions before demolition', ['existing', 'demolition']],
    ['Asbestos abatement containment', ['safety', 'hazmat']],
    ['Selective demolition of bleachers', ['demolition']],
    ['Beam reinforcement plates', ['structure', 'steel']],
    ['New rooftop unit curb', ['hvac', 'roof']],
    ['Floor underlayment', ['flooring', 'interior']],
    ['LED lighting retrofit', ['electrical', 'lighting']],
    ['Millwork installation', ['millwork', 'finishes', 'interior']],
  ],
  civil: [
    ['Dewatering wells running', ['dewatering', 'site']],
    ['Sheet pile shoring', ['shoring', 'excavation']],
    ['Pile driving rig on site', ['piles', 'foundation']],
    ['Rebar cage for pile cap', ['rebar', 'concrete']],
    ['Formwork for the retaining wall', ['concrete', 'formwork']],
    ['Precast delivery', ['precast', 'delivery']],
    ['Process piping gallery', ['piping', 'mechanical']],
    ['Traffic control setup', ['safety', 'traffic']],
    ['Compaction test at backfill', ['testing', 'earthwork', 'inspection']],
  ],
};

const SUMMIT: TenantSpec = {
  name: 'Summit Builders',
  domain: 'summit.test',
  prefix: 'SUM',
  tier: 'professional',
  address: '1850 Wazee St, Denver, CO 80202',
  phone: '(303) 555-0186',
  email: 'office@summit.test',
  website: 'https://summit.test',
  taxRate: 0.0881,
  workdayStartUtc: 14,
  people: [
    { email: 'admin@summit.test', firstName: 'Sarah', lastName: 'Mitchell', kind: 'admin' },
    { email: 'manager@summit.test', firstName: 'David', lastName: 'Okafor', kind: 'manager' },
    { email: 'crew@summit.test', firstName: 'Miguel', lastName: 'Hernandez', kind: 'crew' },
    {
      email: 'sub@summit.test',
      firstName: 'Tom',
      lastName: 'Brennan',
      kind: 'subcontractor',
      trade: 'Electrical',
    },
    { email: 'jake.turner@summit.test', firstName: 'Jake', lastName: 'Turner', kind: 'crew' },
    { email: 'priya.nair@summit.test', firstName: 'Priya', lastName: 'Nair', kind: 'crew' },
    {
      email: 'ray.kowalski@summit.test',
      firstName: 'Ray',
      lastName: 'Kowalski',
      kind: 'subcontractor',
      trade: 'Plumbing',
    },
    {
      email: 'lena.fischer@summit.test',
      firstName: 'Lena',
      lastName: 'Fischer',
      kind: 'subcontractor',
      trade: 'HVAC',
    },
  ],
  projects: [
    {
      key: 'riverside',
      name: 'Riverside Medical Office Building',
      description:
        'Three-storey, 42,000 sq ft medical office building with surface parking and a rooftop mechanical yard.',
      location: '1200 S Platte River Dr, Denver, CO',
      status: 'active',
      progress: 62,
      startDays: -210,
      dueDays: 95,
      budget: 4_850_000,
      actual: 2_910_000,
      client: {
        name: 'Front Range Health Partners',
        email: 'facilities@frhealth.test',
        phone: '(303) 555-0142',
      },
      pool: 'building',
      tasks: 18,
      photos: 10,
    },
    {
      key: 'maple',
      name: 'Maple Street Townhomes, Phase 2',
      description:
        'Twelve three-bedroom townhomes in two buildings, wood frame over slab, with a shared courtyard.',
      location: '415 Maple St, Golden, CO',
      status: 'active',
      progress: 38,
      startDays: -120,
      dueDays: 160,
      budget: 3_200_000,
      actual: 1_310_000,
      client: { name: 'Maple Street Partners LLC', email: 'owner@maplestreet.test', phone: '(303) 555-0175' },
      pool: 'building',
      tasks: 16,
      photos: 8,
    },
    {
      key: 'lincoln',
      name: 'Lincoln Elementary Gymnasium Renovation',
      description:
        'Gym roof replacement, new sports floor, HVAC replacement and ADA restroom upgrades in an occupied school.',
      location: '2300 Lincoln Ave, Littleton, CO',
      status: 'delayed',
      progress: 71,
      startDays: -260,
      dueDays: -12,
      budget: 1_450_000,
      actual: 1_620_000,
      client: {
        name: 'Littleton Public Schools',
        email: 'capital.projects@lps.test',
        phone: '(303) 555-0158',
      },
      pool: 'renovation',
      tasks: 16,
      photos: 8,
    },
    {
      key: 'eastgate',
      name: 'Eastgate Retail Parking Structure',
      description:
        'Four-level precast parking structure, 620 stalls, with EV charging on level 1. On hold pending tenant leases.',
      location: '9800 E Arapahoe Rd, Centennial, CO',
      status: 'on-hold',
      progress: 15,
      startDays: -90,
      dueDays: 240,
      budget: 6_700_000,
      actual: 980_000,
      client: { name: 'Eastgate Retail Holdings', email: 'dev@eastgate.test', phone: '(720) 555-0119' },
      pool: 'civil',
      tasks: 12,
      photos: 5,
    },
    {
      key: 'oakridge',
      name: 'Oakridge Fire Station No. 7',
      description: 'Two-bay fire station with living quarters, training room and emergency generator.',
      location: '77 Oakridge Rd, Lakewood, CO',
      status: 'completed',
      progress: 100,
      startDays: -420,
      dueDays: -40,
      budget: 5_100_000,
      actual: 4_960_000,
      client: { name: 'City of Lakewood', email: 'publicworks@lakewood.test', phone: '(303) 555-0133' },
      pool: 'building',
      tasks: 15,
      photos: 8,
    },
    {
      key: 'pinevalley',
      name: 'Pine Valley Water Treatment Upgrade',
      description:
        'New filter building, pump station upgrades and SCADA controls for a 4 MGD treatment plant.',
      location: '5100 Pine Valley Rd, Parker, CO',
      status: 'active',
      progress: 84,
      startDays: -300,
      dueDays: 20,
      budget: 2_750_000,
      actual: 2_980_000,
      client: { name: 'Pine Valley Water District', email: 'engineering@pvwd.test', phone: '(720) 555-0164' },
      pool: 'civil',
      tasks: 14,
      photos: 7,
    },
  ],
  fixedTasks: [
    {
      title: 'Submit pay application #9: Riverside MOB',
      category: 'administrative',
      project: 'riverside',
      who: 'admin@summit.test',
      due: 3,
      status: 'pending',
      priority: 'high',
      hours: 3,
    },
    {
      title: 'Renew general liability insurance certificate',
      category: 'administrative',
      who: 'admin@summit.test',
      due: 10,
      status: 'pending',
      priority: 'high',
      hours: 2,
    },
    {
      title: 'Update OSHA 300 log for the quarter',
      category: 'administrative',
      who: 'manager@summit.test',
      due: -2,
      status: 'in-progress',
      priority: 'medium',
      hours: 2,
    },
    {
      title: 'Review subcontractor lien waivers',
      category: 'administrative',
      who: 'admin@summit.test',
      due: 0,
      status: 'pending',
      priority: 'medium',
      hours: 1.5,
    },
    {
      title: 'Prepare bid: Westside Library expansion',
      description: 'Bid due to the county at 2 pm. Need subcontractor numbers for MEP and roofing.',
      category: 'administrative',
      who: 'manager@summit.test',
      due: 14,
      status: 'in-progress',
      priority: 'critical',
      hours: 24,
    },
    {
      title: 'Certified payroll report, last week',
      category: 'administrative',
      who: 'admin@summit.test',
      due: -5,
      status: 'completed',
      priority: 'medium',
      hours: 2,
    },
    {
      title: 'Close out warranty documents: Oakridge Fire Station',
      category: 'administrative',
      project: 'oakridge',
      who: 'manager@summit.test',
      due: -20,
      status: 'completed',
      priority: 'low',
      hours: 6,
    },
    {
      title: 'Schedule forklift operator recertification',
      category: 'administrative',
      who: null,
      due: null,
      status: 'pending',
      priority: 'low',
    },
    {
      title: 'Restock first-aid kits in all trucks',
      category: 'general',
      who: 'crew@summit.test',
      due: 2,
      status: 'pending',
      priority: 'low',
      hours: 1,
    },
    {
      title: 'Service generator #3',
      category: 'general',
      who: 'jake.turner@summit.test',
      due: -1,
      status: 'pending',
      priority: 'medium',
      hours: 3,
    },
    {
      title: 'Inventory small tools at the yard',
      category: 'general',
      who: 'priya.nair@summit.test',
      due: 6,
      status: 'pending',
      priority: 'low',
      hours: 4,
    },
    {
      title: 'Quarterly safety stand-down',
      description: 'All crews, 7 am at the yard. Topics: struck-by hazards, silica, heat illness.',
      category: 'general',
      who: 'manager@summit.test',
      due: 8,
      status: 'pending',
      priority: 'high',
      milestone: true,
      hours: 2,
    },
    {
      title: 'Clean out the storage container',
      category: 'general',
      who: null,
      due: null,
      status: 'pending',
      priority: 'low',
    },
    {
      title: 'Order replacement hard hats and vests',
      category: 'general',
      who: 'crew@summit.test',
      due: -3,
      status: 'completed',
      priority: 'low',
      hours: 0.5,
    },
    {
      title: 'Pull feeders to main switchgear',
      category: 'subcontractor',
      project: 'riverside',
      who: 'sub@summit.test',
      due: 0,
      status: 'in-progress',
      priority: 'high',
      hours: 32,
    },
    {
      title: 'Install level 2 lighting fixtures',
      category: 'subcontractor',
      project: 'riverside',
      who: 'sub@summit.test',
      due: 3,
      status: 'pending',
      priority: 'medium',
      hours: 40,
    },
    {
      title: 'Electrical rough-in inspection',
      category: 'subcontractor',
      project: 'riverside',
      who: 'sub@summit.test',
      due: 5,
      status: 'pending',
      priority: 'high',
      milestone: true,
      hours: 4,
    },
    {
      title: 'Label panels and submit as-builts',
      category: 'subcontractor',
      project: 'riverside',
      who: 'sub@summit.test',
      due: null,
      status: 'pending',
      priority: 'low',
      hours: 8,
    },
    {
      title: 'Terminate VFD wiring at the pump station',
      category: 'subcontractor',
      project: 'pinevalley',
      who: 'sub@summit.test',
      due: -2,
      status: 'in-progress',
      priority: 'critical',
      hours: 16,
    },
    {
      title: 'Controls panel power-up',
      category: 'subcontractor',
      project: 'pinevalley',
      who: 'sub@summit.test',
      due: 1,
      status: 'pending',
      priority: 'high',
      milestone: true,
      hours: 6,
    },
    {
      title: 'Remove temporary power',
      category: 'subcontractor',
      project: 'pinevalley',
      who: 'sub@summit.test',
      due: -6,
      status: 'completed',
      priority: 'medium',
      hours: 6,
    },
    {
      title: 'Plumbing rough-in, units 7 to 12',
      category: 'subcontractor',
      project: 'maple',
      who: 'ray.kowalski@summit.test',
      due: 0,
      status: 'pending',
      priority: 'high',
      hours: 48,
    },
    {
      title: 'Pressure test domestic water lines',
      category: 'subcontractor',
      project: 'maple',
      who: 'ray.kowalski@summit.test',
      due: 4,
      status: 'pending',
      priority: 'medium',
      milestone: true,
      hours: 6,
    },
    {
      title: 'Set water heaters',
      category: 'subcontractor',
      project: 'maple',
      who: 'ray.kowalski@summit.test',
      due: 12,
      status: 'pending',
      priority: 'low',
      hours: 12,
    },
    {
      title: 'Set rooftop units by crane',
      description: 'Crane booked; waiting on the structural engineer to approve the roof beam reinforcement.',
      category: 'subcontractor',
      project: 'lincoln',
      who: 'lena.fischer@summit.test',
      due: -5,
      status: 'blocked',
      priority: 'critical',
      hours: 10,
    },
    {
      title: 'Balance gym ductwork',
      category: 'subcontractor',
      project: 'lincoln',
      who: 'lena.fischer@summit.test',
      due: 6,
      status: 'pending',
      priority: 'medium',
      hours: 8,
    },
  ],
  assignments: [
    { sub: 'sub@summit.test', project: 'riverside', status: 'active' },
    { sub: 'sub@summit.test', project: 'pinevalley', status: 'active' },
    { sub: 'ray.kowalski@summit.test', project: 'maple', status: 'active' },
    { sub: 'ray.kowalski@summit.test', project: 'oakridge', status: 'completed' },
    { sub: 'lena.fischer@summit.test', project: 'lincoln', status: 'active' },
  ],
  logsPerProject: 5,
  scheduleChanges: [
    { reason: 'Concrete supplier pushed our delivery by two days.', status: 'pending' },
    { reason: 'Snow forecast: pour moved to the next dry window.', status: 'approved' },
    { reason: 'Waiting on inspector availability.', status: 'rejected' },
    { reason: 'Switchgear delayed by the manufacturer.', status: 'pending' },
    { reason: 'Crew reassigned to the Pine Valley pump failure.', status: 'approved' },
    { reason: 'Owner requested a design change (RFI 22).', status: 'pending' },
    { reason: 'Crane permit renewal pending with the city.', status: 'rejected' },
    { reason: 'Material substitution awaiting architect approval.', status: 'approved' },
  ],
  invoices: [
    { project: 'oakridge', status: 'paid', due: -70, labor: 412_000, materials: 96_500 },
    { project: 'riverside', status: 'paid', due: -42, labor: 286_000, materials: 74_200 },
    { project: 'maple', status: 'paid', due: -35, labor: 198_400, materials: 61_750 },
    { project: 'lincoln', status: 'sent', due: -25, labor: 142_800, materials: 38_900 },
    { project: 'pinevalley', status: 'paid', due: -20, labor: 221_600, materials: 58_300 },
    { project: 'riverside', status: 'sent', due: -10, labor: 305_500, materials: 82_100 },
    { project: 'maple', status: 'sent', due: 15, labor: 176_200, materials: 44_600 },
    { project: 'pinevalley', status: 'draft', due: 30, labor: 164_000, materials: 39_800 },
  ],
  changeOrders: [
    {
      project: 'riverside',
      by: 'manager@summit.test',
      title: 'Add blocking for owner-furnished equipment',
      description:
        'In-wall blocking for exam-room equipment on levels 2 and 3, per the owner equipment list rev C.',
      cost: 18_500,
      days: 3,
      status: 'approved',
      ago: 40,
    },
    {
      project: 'riverside',
      by: 'manager@summit.test',
      title: 'Upgrade lobby flooring to terrazzo',
      description: 'Owner asked to replace the specified LVT in the main lobby with poured terrazzo.',
      cost: 42_000,
      days: 10,
      status: 'pending',
      ago: 4,
    },
    {
      project: 'maple',
      by: 'crew@summit.test',
      title: 'Unforeseen rock during excavation',
      description: 'Hit rock at 4 ft across building B footings; hoe-ram and haul-off required.',
      cost: 67_500,
      days: 7,
      status: 'approved',
      ago: 60,
    },
    {
      project: 'lincoln',
      by: 'manager@summit.test',
      title: 'Replace deteriorated roof deck',
      description: 'Roof deck found rusted through at 14 locations once the old membrane came off.',
      cost: 98_000,
      days: 14,
      status: 'approved',
      ago: 75,
    },
    {
      project: 'eastgate',
      by: 'admin@summit.test',
      title: 'Additional EV chargers on level 2',
      description: 'Owner requests 24 more Level 2 chargers and the conduit to serve them.',
      cost: 125_000,
      days: 5,
      status: 'pending',
      ago: 9,
    },
    {
      project: 'pinevalley',
      by: 'sub@summit.test',
      title: 'Redundant sludge pump',
      description: 'Add a standby sludge pump with automatic changeover.',
      cost: 31_000,
      days: 6,
      status: 'rejected',
      ago: 18,
    },
  ],
  communications: [
    {
      project: 'riverside',
      from: 'manager@summit.test',
      to: 'crew@summit.test',
      subject: 'Level 2 pour moved to Thursday',
      message:
        'Pump truck is confirmed for Thursday 6 am. Please have the deck cleaned and the edge forms checked by Wednesday noon.',
      type: 'message',
      priority: 'normal',
      status: 'open',
      hoursAgo: 3,
    },
    {
      project: 'riverside',
      from: 'client',
      to: 'manager@summit.test',
      subject: 'Owner walkthrough Friday 10 am',
      message: 'We will bring the clinic director. Please have the level 1 mock-up room ready to review.',
      type: 'message',
      priority: 'high',
      status: 'open',
      hoursAgo: 20,
    },
    {
      project: 'riverside',
      from: 'sub@summit.test',
      to: 'manager@summit.test',
      subject: 'Backcharge for damaged drywall',
      message:
        'We dispute the $2,400 backcharge. The drywall at corridor 2B was damaged by the HVAC crew, not ours; photos attached in the log.',
      type: 'dispute',
      priority: 'urgent',
      status: 'open',
      hoursAgo: 30,
    },
    {
      project: 'riverside',
      from: 'admin@summit.test',
      to: 'client',
      subject: 'Pay application #8 submitted',
      message: 'Pay application #8 and the updated schedule of values are attached for your review.',
      type: 'invoice',
      priority: 'normal',
      status: 'pending',
      hoursAgo: 260,
    },
    {
      project: 'maple',
      from: 'crew@summit.test',
      to: 'manager@summit.test',
      subject: 'Dumpster swap schedule',
      message:
        'Waste hauler can only swap on Tuesdays now. I moved the framing cleanup to Monday afternoons.',
      type: 'message',
      priority: 'low',
      status: 'resolved',
      hoursAgo: 120,
    },
    {
      project: 'maple',
      from: 'client',
      to: 'manager@summit.test',
      subject: 'Disputed rock excavation quantities',
      message:
        'Our surveyor measured 180 CY of rock, not 240 CY. We need the field tickets before approving the change order amount.',
      type: 'dispute',
      priority: 'high',
      status: 'pending',
      hoursAgo: 72,
    },
    {
      project: 'lincoln',
      from: 'admin@summit.test',
      to: 'client',
      subject: 'Invoice past due',
      message:
        'A friendly reminder that our progress invoice for the gym renovation is now past due. Please let us know if anything is missing.',
      type: 'invoice',
      priority: 'high',
      status: 'open',
      hoursAgo: 50,
    },
    {
      project: 'lincoln',
      from: 'crew@summit.test',
      to: 'manager@summit.test',
      subject: 'Roof leak over the gym floor after the storm',
      message:
        'Water is coming through at the north-east drain. Floor is covered with poly; we need the roofer back today.',
      type: 'message',
      priority: 'urgent',
      status: 'open',
      hoursAgo: 6,
    },
    {
      project: 'pinevalley',
      from: 'manager@summit.test',
      to: 'sub@summit.test',
      subject: 'Pump startup checklist',
      message:
        'Attached is the startup checklist from the pump manufacturer. Their rep will be on site for the power-up.',
      type: 'message',
      priority: 'normal',
      status: 'resolved',
      hoursAgo: 96,
    },
  ],
  risks: [
    {
      project: 'lincoln',
      type: 'schedule',
      title: 'Sports floor delivery delay',
      description:
        'Maple flooring supplier reports a four-week backlog; the school wants the gym back before the spring term.',
      probability: 'high',
      impact: 'high',
      status: 'monitoring',
      mitigation: 'Pre-approved an alternate supplier; resequenced restroom work to run in parallel.',
      assignee: 'manager@summit.test',
      due: 7,
    },
    {
      project: 'riverside',
      type: 'weather',
      title: 'Crane wind shutdowns',
      description: 'Spring wind events could stop crane picks for the rooftop mechanical units.',
      probability: 'medium',
      impact: 'high',
      status: 'identified',
      mitigation: 'Schedule picks for early mornings; keep a backup crane date booked.',
      assignee: 'manager@summit.test',
      due: 21,
    },
    {
      project: 'pinevalley',
      type: 'budget',
      title: 'Process piping overrun',
      description: 'Ductile iron pricing rose 18% since bid; the project is already over budget.',
      probability: 'high',
      impact: 'medium',
      status: 'identified',
      mitigation: 'Value-engineer the gallery supports; request a material escalation change order.',
      assignee: 'admin@summit.test',
      due: 10,
    },
    {
      project: 'maple',
      type: 'safety',
      title: 'Trench collapse in utility work',
      description: 'Sewer lateral trenches exceed 5 ft in loose soil along the courtyard.',
      probability: 'low',
      impact: 'high',
      status: 'mitigated',
      mitigation: 'Trench boxes on site; competent-person check before every entry.',
      assignee: 'crew@summit.test',
      due: -3,
    },
  ],
  timeEntries: 22,
  activities: 22,
};

const HARBOR: TenantSpec = {
  name: 'Harbor Construction',
  domain: 'harbor.test',
  prefix: 'HAR',
  tier: 'basic',
  address: '2401 Utah Ave S, Seattle, WA 98134',
  phone: '(206) 555-0117',
  email: 'info@harbor.test',
  website: 'https://harbor.test',
  taxRate: 0.1035,
  workdayStartUtc: 15,
  people: [
    { email: 'admin@harbor.test', firstName: 'Grace', lastName: 'Liu', kind: 'admin' },
    { email: 'crew@harbor.test', firstName: 'Marcus', lastName: 'Reed', kind: 'crew' },
    { email: 'ben.castillo@harbor.test', firstName: 'Ben', lastName: 'Castillo', kind: 'manager' },
    {
      email: 'nora.quinn@harbor.test',
      firstName: 'Nora',
      lastName: 'Quinn',
      kind: 'subcontractor',
      trade: 'Marine diving',
    },
  ],
  projects: [
    {
      key: 'pier14',
      name: 'Pier 14 Seawall Rehabilitation',
      description:
        'Replace 320 ft of failing timber seawall with steel sheet piles and a cast-in-place concrete cap.',
      location: 'Pier 14, 2200 Alaskan Way, Seattle, WA',
      status: 'active',
      progress: 45,
      startDays: -150,
      dueDays: 120,
      budget: 3_900_000,
      actual: 1_650_000,
      client: { name: 'Port of Seattle', email: 'marine.projects@port.test', phone: '(206) 555-0190' },
      pool: 'civil',
      tasks: 14,
      photos: 8,
    },
    {
      key: 'bayfront',
      name: 'Bayfront Hotel Lobby Remodel',
      description:
        'Lobby, front desk and lounge remodel in an operating 180-room hotel, night and weekend work.',
      location: '1 Bayfront Plaza, Tacoma, WA',
      status: 'delayed',
      progress: 58,
      startDays: -140,
      dueDays: -6,
      budget: 1_180_000,
      actual: 1_240_000,
      client: { name: 'Bayfront Hospitality Group', email: 'gm@bayfronthotel.test', phone: '(253) 555-0127' },
      pool: 'renovation',
      tasks: 12,
      photos: 6,
    },
  ],
  fixedTasks: [
    {
      title: 'Submit pay application #4: Pier 14',
      category: 'administrative',
      project: 'pier14',
      who: 'admin@harbor.test',
      due: 2,
      status: 'pending',
      priority: 'high',
      hours: 3,
    },
    {
      title: 'Renew marine contractor license',
      category: 'administrative',
      who: 'admin@harbor.test',
      due: 21,
      status: 'pending',
      priority: 'medium',
      hours: 1,
    },
    {
      title: 'Reconcile fuel card statements',
      category: 'administrative',
      who: 'ben.castillo@harbor.test',
      due: -3,
      status: 'pending',
      priority: 'low',
      hours: 2,
    },
    {
      title: 'Inspect work skiff and life jackets',
      category: 'general',
      who: 'crew@harbor.test',
      due: 0,
      status: 'pending',
      priority: 'medium',
      hours: 1,
    },
    {
      title: 'Organize the yard laydown area',
      category: 'general',
      who: null,
      due: null,
      status: 'pending',
      priority: 'low',
    },
    {
      title: 'Underwater inspection of pile caps',
      category: 'subcontractor',
      project: 'pier14',
      who: 'nora.quinn@harbor.test',
      due: 0,
      status: 'in-progress',
      priority: 'high',
      milestone: true,
      hours: 8,
    },
    {
      title: 'Install cathodic protection anodes',
      category: 'subcontractor',
      project: 'pier14',
      who: 'nora.quinn@harbor.test',
      due: 6,
      status: 'pending',
      priority: 'medium',
      hours: 20,
    },
    {
      title: 'Submit dive logs',
      category: 'subcontractor',
      project: 'pier14',
      who: 'nora.quinn@harbor.test',
      due: -1,
      status: 'pending',
      priority: 'low',
      hours: 1,
    },
  ],
  assignments: [{ sub: 'nora.quinn@harbor.test', project: 'pier14', status: 'active' }],
  logsPerProject: 5,
  scheduleChanges: [
    { reason: 'Tide window moved: low tides shift to the afternoon next week.', status: 'pending' },
    { reason: 'Hotel asked us to avoid work during the conference weekend.', status: 'approved' },
  ],
  invoices: [
    { project: 'bayfront', status: 'paid', due: -50, labor: 96_400, materials: 31_200 },
    { project: 'pier14', status: 'paid', due: -28, labor: 184_300, materials: 52_700 },
    { project: 'pier14', status: 'sent', due: -8, labor: 167_900, materials: 48_100 },
    { project: 'bayfront', status: 'draft', due: 21, labor: 88_600, materials: 24_300 },
  ],
  changeOrders: [
    {
      project: 'pier14',
      by: 'ben.castillo@harbor.test',
      title: 'Replace additional corroded piles',
      description: 'Dive survey found 9 more piles below 50% section loss beyond the 14 in the contract.',
      cost: 210_000,
      days: 12,
      status: 'pending',
      ago: 5,
    },
    {
      project: 'bayfront',
      by: 'crew@harbor.test',
      title: 'Raise lobby ceiling height',
      description: 'Designer asks to raise the lobby soffit 8 in, which requires relocating sprinkler mains.',
      cost: 34_000,
      days: 4,
      status: 'rejected',
      ago: 22,
    },
  ],
  communications: [
    {
      project: 'pier14',
      from: 'ben.castillo@harbor.test',
      to: 'crew@harbor.test',
      subject: 'Tide window for pile work next week',
      message: 'Low tides are at 2 to 4 pm Monday to Thursday. Plan the cap forming around those windows.',
      type: 'message',
      priority: 'high',
      status: 'open',
      hoursAgo: 8,
    },
    {
      project: 'pier14',
      from: 'nora.quinn@harbor.test',
      to: 'admin@harbor.test',
      subject: 'Diver standby time charges',
      message:
        'Our divers stood by 6 hours on Tuesday waiting for the crane. We are billing standby per our subcontract.',
      type: 'dispute',
      priority: 'normal',
      status: 'open',
      hoursAgo: 40,
    },
    {
      project: 'bayfront',
      from: 'client',
      to: 'admin@harbor.test',
      subject: 'Progress invoice paid',
      message: 'Payment for the first progress invoice was released this morning by ACH.',
      type: 'invoice',
      priority: 'low',
      status: 'resolved',
      hoursAgo: 400,
    },
  ],
  risks: [
    {
      project: 'pier14',
      type: 'quality',
      title: 'Hidden pile corrosion beyond survey',
      description: 'Section loss may be worse below the mudline than the dive survey showed.',
      probability: 'medium',
      impact: 'high',
      status: 'monitoring',
      mitigation: 'Ultrasonic thickness testing on every fifth pile before the cap pour.',
      assignee: 'ben.castillo@harbor.test',
      due: 14,
    },
    {
      project: 'bayfront',
      type: 'resource',
      title: 'Hotel operations limit work hours',
      description: 'Front desk must stay open; noisy work only 10 pm to 6 am.',
      probability: 'high',
      impact: 'low',
      status: 'identified',
      mitigation: 'Night crew of four; quiet tasks scheduled for the day shift.',
      assignee: 'admin@harbor.test',
      due: 5,
    },
  ],
  timeEntries: 8,
  activities: 8,
};

const HEALTH_TEMPLATES = [
  {
    name: 'Weekly site health check',
    description: 'Schedule, budget, quality and resources, reviewed every Monday by the project manager.',
    criteria: {
      weights: { schedule: 0.35, budget: 0.3, quality: 0.2, resources: 0.15 },
      bands: { green: 80, yellow: 60, orange: 40 },
      checklist: [
        'Look-ahead schedule updated',
        'Budget vs. actual reviewed',
        'Open issue logs triaged',
        'Crew assignments confirmed',
      ],
    },
  },
  {
    name: 'Monthly safety and quality audit',
    description:
      'Site walk with the safety officer: open safety logs, failed inspections and corrective actions.',
    criteria: {
      frequency: 'monthly',
      checklist: [
        'Fall protection in place',
        'Housekeeping',
        'Failed inspections closed',
        'Toolbox talks logged',
      ],
    },
  },
] as const;

const BLOCK_COLOURS: readonly (readonly [number, number, number])[] = [
  [158, 158, 150],
  [176, 84, 52],
  [205, 170, 115],
  [222, 184, 38],
  [70, 110, 160],
  [120, 140, 90],
  [190, 120, 80],
  [95, 95, 110],
];

// ---------------------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------------------

interface Person extends PersonSpec {
  id: string;
  name: string;
}

interface ProjectCtx {
  spec: ProjectSpec;
  row: Project;
  startMs: number;
  dueMs: number;
}

interface Tenant {
  spec: TenantSpec;
  company: Company;
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

interface PhotoBlob {
  key: string;
  bytes: Uint8Array;
}

interface DemoData {
  companies: Company[];
  users: User[];
  projects: Project[];
  tasks: Task[];
  projectLogs: ProjectLog[];
  photos: Photo[];
  scheduleChanges: ScheduleChange[];
  userActivities: UserActivity[];
  notifications: Notification[];
  subcontractorAssignments: SubcontractorAssignment[];
  projectHealthMetrics: ProjectHealthMetric[];
  riskAssessments: RiskAssessment[];
  healthCheckTemplates: HealthCheckTemplate[];
  communications: Communication[];
  changeOrders: ChangeOrder[];
  timeEntries: TimeEntry[];
  invoices: Invoice[];
  blobs: PhotoBlob[];
}

const emptySync = (createdAt: number, updatedBy: string) => ({
  version: 0,
  deletedAt: null,
  fieldMeta: {},
  updatedAt: iso(createdAt),
  updatedBy,
});

class Builder {
  readonly data: DemoData = {
    companies: [],
    users: [],
    projects: [],
    tasks: [],
    projectLogs: [],
    photos: [],
    scheduleChanges: [],
    userActivities: [],
    notifications: [],
    subcontractorAssignments: [],
    projectHealthMetrics: [],
    riskAssessments: [],
    healthCheckTemplates: [],
    communications: [],
    changeOrders: [],
    timeEntries: [],
    invoices: [],
    blobs: [],
  };
  private readonly rng = makeRng(20_260_315);
  private readonly pixels = makeRng(7);
  private readonly todayStart: number;
  private photoNumber = 2041;

  constructor(
    private readonly nowMs: number,
    private readonly passwordHash: string,
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

  build(): DemoData {
    const root = this.user(ROOT_PERSON, PLATFORM_COMPANY_ID, this.nowMs - 600 * DAY);
    this.data.users.push(root);
    const tenants = [SUMMIT, HARBOR].map((spec, i) => this.tenant(spec, this.nowMs - (500 - i * 200) * DAY));
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
      for (const p of t.projects) this.health(t, p);
      this.healthTemplates(t);
      this.activities(t);
      this.notifications(t);
    }
    this.rootNotifications(root);
    this.assignVersions(tenants);
    return this.data;
  }

  // --- identity -----------------------------------------------------------------------------------------

  private user(p: PersonSpec, companyId: string, createdMs: number): User {
    const email = p.email.toLowerCase();
    const row: User = {
      id: newId(),
      email,
      firstName: p.firstName,
      lastName: p.lastName,
      profileImageUrl: null,
      username: email,
      password: this.passwordHash,
      name: `${p.firstName} ${p.lastName}`,
      role: p.kind,
      roleId: ROLE_TEMPLATES[p.kind].id,
      companyId,
      isActive: true,
      mustChangePassword: false,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    };
    return row;
  }

  private tenant(spec: TenantSpec, createdMs: number): Tenant {
    const company: Company = {
      id: newId(),
      name: spec.name,
      industry: 'construction',
      address: spec.address,
      phone: spec.phone,
      email: spec.email,
      website: spec.website,
      logo: null,
      domain: spec.domain,
      settings: { type: 'customer', subscription_tier: spec.tier },
      planType: spec.tier,
      status: 'active',
      isActive: true,
      lastVersion: 0,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    };
    this.data.companies.push(company);
    const people = spec.people.map((p, i) => {
      const row = this.user(p, company.id, createdMs + (i + 1) * DAY);
      this.data.users.push(row);
      return { ...p, id: row.id, name: row.name ?? p.email };
    });
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
    const row: Project = {
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
      ...emptySync(this.nowMs - (t.projects.length * 19 + 4) * HOUR, t.manager.id),
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
      ...emptySync(v.completedMs ?? v.createdMs, v.assignee?.id ?? t.manager.id),
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
      const id = newId();
      const key = `${id}.jpg`;
      const bytes = drawSitePhoto(this.pixels, at(BLOCK_COLOURS, this.data.photos.length * 3 + index));
      this.data.blobs.push({ key, bytes });
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
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
        mimeType: 'image/jpeg',
        sizeBytes: bytes.byteLength,
        blobStatus: 'present',
        createdAt: iso(createdMs),
        ...emptySync(createdMs, taker.id),
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
              .map((ph) => `/api/photos/${ph.id}/file`)
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
        ...emptySync(createdMs, writer.id),
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
        ...emptySync(decided ? createdMs + 6 * HOUR : createdMs, decided ? t.manager.id : requester),
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
        approvedBy: s.status === 'approved' ? approver.id : null,
        approvedAt: s.status === 'approved' && decidedMs !== null ? iso(decidedMs) : null,
        reason: s.status === 'rejected' ? 'Rejected by project manager' : null,
        attachments: [],
        createdAt: iso(createdMs),
        updatedAt: iso(decidedMs ?? createdMs),
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
    const weight: Record<Level3, number> = { low: 1, medium: 3, high: 5 };
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
        riskScore: weight[s.impact] * weight[s.probability],
        status: s.status,
        mitigationPlan: s.mitigation,
        assignedTo: t.person(s.assignee).id,
        identifiedBy: t.manager.id,
        dueDate: iso(this.dayAt(s.due, 23)),
        createdAt: iso(createdMs),
        updatedAt: iso(s.status === 'identified' ? createdMs : createdMs + 4 * DAY),
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

  /** DESIGN.md section 9's health formula over the seeded rows, so a recalculation does not jump. */
  private health(t: Tenant, p: ProjectCtx): void {
    const open = this.data.tasks.filter((x) => x.projectId === p.row.id && x.status !== 'completed');
    const share = (pred: (x: Task) => boolean) =>
      open.length === 0 ? 0 : open.filter(pred).length / open.length;
    const elapsed = clamp(((this.nowMs - p.startMs) / (p.dueMs - p.startMs)) * 100, 0, 100);
    const schedule =
      100 -
      Math.max(0, elapsed - p.spec.progress) -
      50 * share((x) => Date.parse(x.dueDate ?? '') < this.nowMs);
    const spent = (p.spec.actual / p.spec.budget) * 100;
    const budget = 100 - Math.max(0, spent - p.spec.progress);
    const openLogs = this.data.projectLogs.filter(
      (l) => l.projectId === p.row.id && (l.status === 'open' || l.status === 'in-progress'),
    );
    const quality =
      100 -
      10 * openLogs.filter((l) => l.type === 'issue').length -
      20 * openLogs.filter((l) => l.type === 'safety').length;
    const resources =
      100 - 50 * share((x) => x.assigneeId === null) - 50 * share((x) => x.status === 'blocked');
    const [s, b, q, r] = [schedule, budget, quality, resources].map((v) => Math.round(clamp(v, 0, 100))) as [
      number,
      number,
      number,
      number,
    ];
    const overall = Math.round(0.35 * s + 0.3 * b + 0.2 * q + 0.15 * r);
    this.data.projectHealthMetrics.push({
      id: newId(),
      projectId: p.row.id,
      companyId: t.company.id,
      overallHealthScore: overall,
      scheduleHealth: s,
      budgetHealth: b,
      qualityHealth: q,
      resourceHealth: r,
      riskLevel: overall >= 80 ? 'low' : overall >= 60 ? 'medium' : overall >= 40 ? 'high' : 'critical',
      calculatedAt: iso(this.nowMs - (t.projects.indexOf(p) + 1) * 2 * HOUR),
    });
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

  // --- activity and notifications -----------------------------------------------------------------------

  private activities(t: Tenant): void {
    const name = (id: string | null) => t.people.find((p) => p.id === id)?.name ?? 'Someone';
    const projectName = (id: string | null) =>
      t.projects.find((p) => p.row.id === id)?.spec.name ?? 'a project';
    const since = this.nowMs - 30 * DAY;
    const candidates: {
      ms: number;
      userId: string | null;
      action: string;
      text: string;
      type: string;
      id: string;
      projectId: string | null;
    }[] = [];
    for (const x of this.tasksOf(t)) {
      if (x.completedAt && Date.parse(x.completedAt) > since)
        candidates.push({
          ms: Date.parse(x.completedAt),
          userId: x.assigneeId,
          action: 'task_completed',
          text: `${name(x.assigneeId)} completed “${x.title}”`,
          type: 'task',
          id: x.id,
          projectId: x.projectId,
        });
      if (Date.parse(x.createdAt) > since)
        candidates.push({
          ms: Date.parse(x.createdAt),
          userId: t.manager.id,
          action: 'task_created',
          text: `${t.manager.name} created task “${x.title}”`,
          type: 'task',
          id: x.id,
          projectId: x.projectId,
        });
    }
    for (const ph of this.data.photos.filter((x) => x.companyId === t.company.id))
      candidates.push({
        ms: Date.parse(ph.createdAt),
        userId: ph.userId,
        action: 'photo_uploaded',
        text: `${name(ph.userId)} uploaded ${ph.originalName ?? 'a photo'} to ${projectName(ph.projectId)}`,
        type: 'photo',
        id: ph.id,
        projectId: ph.projectId,
      });
    for (const l of this.data.projectLogs.filter((x) => x.companyId === t.company.id))
      candidates.push({
        ms: Date.parse(l.createdAt),
        userId: l.userId,
        action: 'log_created',
        text: `${name(l.userId)} added ${/^[aeiou]/.test(l.type) ? 'an' : 'a'} ${l.type} log “${l.title}”`,
        type: 'project_log',
        id: l.id,
        projectId: l.projectId,
      });
    for (const sc of this.data.scheduleChanges.filter((x) => x.companyId === t.company.id)) {
      const task = this.data.tasks.find((x) => x.id === sc.taskId);
      candidates.push({
        ms: Date.parse(sc.createdAt),
        userId: sc.userId,
        action: 'schedule_change_requested',
        text: `${name(sc.userId)} asked to move “${task?.title ?? 'a task'}” to ${shortDate(Date.parse(sc.newDate))}`,
        type: 'schedule_change',
        id: sc.id,
        projectId: task?.projectId ?? null,
      });
    }
    for (const co of this.data.changeOrders.filter((x) => x.companyId === t.company.id))
      candidates.push({
        ms: Date.parse(co.createdAt),
        userId: co.requestedBy,
        action: 'change_order_created',
        text: `${name(co.requestedBy)} requested change order “${co.title}” (${dollars(co.costImpact)})`,
        type: 'change_order',
        id: co.id,
        projectId: co.projectId,
      });
    for (const p of t.projects)
      candidates.push({
        ms: Date.parse(p.row.updatedAt),
        userId: t.manager.id,
        action: 'project_updated',
        text: `${t.manager.name} updated ${p.spec.name}: progress ${p.spec.progress}%`,
        type: 'project',
        id: p.row.id,
        projectId: p.row.id,
      });
    // Newest first, at most six of a kind, so the feed shows a mix of what people do.
    const perAction = new Map<string, number>();
    const chosen = candidates
      .filter((c) => c.ms <= this.nowMs)
      .sort((a, b) => b.ms - a.ms)
      .filter((c) => {
        const n = perAction.get(c.action) ?? 0;
        perAction.set(c.action, n + 1);
        return n < 6;
      })
      .slice(0, t.spec.activities);
    for (const c of chosen)
      this.data.userActivities.push({
        id: newId(),
        userId: c.userId,
        companyId: t.company.id,
        actionType: c.action,
        description: c.text,
        entityType: c.type,
        entityId: c.id,
        metadata: { projectId: c.projectId, projectName: c.projectId ? projectName(c.projectId) : null },
        createdAt: iso(c.ms),
      });
  }

  private notify(
    t: { company: { id: string } },
    user: { id: string },
    n: {
      type: 'info' | 'warning' | 'success' | 'error';
      title: string;
      message: string;
      read: boolean;
      minutesAgo: number;
    },
    related?: { type: string; id: string },
  ): void {
    this.data.notifications.push({
      id: newId(),
      userId: user.id,
      companyId: t.company.id,
      title: n.title,
      message: n.message,
      type: n.type,
      isRead: n.read,
      relatedEntityType: related?.type ?? null,
      relatedEntityId: related?.id ?? null,
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
    const pendingCo = this.data.changeOrders.find(
      (x) => x.companyId === t.company.id && x.status === 'pending',
    );
    const overBudget = t.projects.find((p) => p.spec.actual > p.spec.budget);

    // Admins: money and approvals.
    if (late) {
      const days = Math.floor((this.nowMs - Date.parse(late.dueDate ?? '')) / DAY);
      this.notify(
        t,
        t.admin,
        {
          type: 'warning',
          title: 'Invoice overdue',
          message: `Invoice ${late.invoiceNumber} (${dollars(late.total)}) to ${late.clientName ?? 'the client'} is ${days} days overdue.`,
          read: false,
          minutesAgo: 45,
        },
        { type: 'invoice', id: late.id },
      );
    }
    if (pendingCo)
      this.notify(
        t,
        t.admin,
        {
          type: 'info',
          title: 'Change order awaiting approval',
          message: `“${pendingCo.title}” (${dollars(pendingCo.costImpact)}) on ${projectName(pendingCo.projectId)} needs a decision.`,
          read: false,
          minutesAgo: 180,
        },
        { type: 'change_order', id: pendingCo.id },
      );
    if (overBudget) {
      const pct = Math.round((overBudget.spec.actual / overBudget.spec.budget - 1) * 100);
      this.notify(
        t,
        t.admin,
        {
          type: 'error',
          title: 'Project over budget',
          message: `${overBudget.spec.name} is ${pct}% over its budget.`,
          read: true,
          minutesAgo: 60 * 26,
        },
        { type: 'project', id: overBudget.row.id },
      );
    }
    if (paid)
      this.notify(
        t,
        t.admin,
        {
          type: 'success',
          title: 'Payment received',
          message: `Invoice ${paid.invoiceNumber} was paid in full (${dollars(paid.total)}).`,
          read: true,
          minutesAgo: 60 * 24 * 4,
        },
        { type: 'invoice', id: paid.id },
      );

    // Manager: requests from the field.
    const pendingSc = this.data.scheduleChanges.find(
      (x) => x.companyId === t.company.id && x.status === 'pending',
    );
    if (pendingSc) {
      const task = this.data.tasks.find((x) => x.id === pendingSc.taskId);
      this.notify(
        t,
        t.manager,
        {
          type: 'info',
          title: 'Schedule change requested',
          message: `${t.people.find((p) => p.id === pendingSc.userId)?.name ?? 'A crew member'} asked to move “${task?.title ?? 'a task'}” to ${shortDate(Date.parse(pendingSc.newDate))}.`,
          read: false,
          minutesAgo: 30,
        },
        { type: 'schedule_change', id: pendingSc.id },
      );
    }
    const managerLate = taskOf(t.manager, overdue);
    if (managerLate)
      this.notify(
        t,
        t.manager,
        {
          type: 'warning',
          title: 'Task overdue',
          message: `“${managerLate.title}” was due ${shortDate(Date.parse(managerLate.dueDate ?? ''))}.`,
          read: false,
          minutesAgo: 120,
        },
        { type: 'task', id: managerLate.id },
      );
    const inspected = at(t.projects, 0);
    const inspection =
      inspected.spec.pool === 'civil' ? 'rebar inspection at the pile caps' : 'firestopping inspection';
    this.notify(
      t,
      t.manager,
      {
        type: 'error',
        title: 'Inspection failed',
        message: `The inspector failed the ${inspection} on ${inspected.spec.name}. Re-inspection needed.`,
        read: true,
        minutesAgo: 60 * 30,
      },
      { type: 'project', id: inspected.row.id },
    );

    // Crew: their own work.
    const crewToday = taskOf(
      t.crew,
      (x) => x.status !== 'completed' && this.dayOffset(Date.parse(x.dueDate ?? '')) === 0,
    );
    if (crewToday)
      this.notify(
        t,
        t.crew,
        {
          type: 'info',
          title: 'New task assigned',
          message: `You were assigned “${crewToday.title}” on ${projectName(crewToday.projectId)}, due today.`,
          read: false,
          minutesAgo: 20,
        },
        { type: 'task', id: crewToday.id },
      );
    const crewLate = taskOf(t.crew, overdue);
    if (crewLate)
      this.notify(
        t,
        t.crew,
        {
          type: 'warning',
          title: 'Task overdue',
          message: `“${crewLate.title}” was due ${shortDate(Date.parse(crewLate.dueDate ?? ''))}.`,
          read: false,
          minutesAgo: 95,
        },
        { type: 'task', id: crewLate.id },
      );
    const approved = this.data.scheduleChanges.find(
      (x) => x.companyId === t.company.id && x.status === 'approved' && x.userId === t.crew.id,
    );
    if (approved)
      this.notify(
        t,
        t.crew,
        {
          type: 'success',
          title: 'Schedule change approved',
          message: `${t.manager.name} approved your request: new date ${shortDate(Date.parse(approved.newDate))}.`,
          read: true,
          minutesAgo: 60 * 20,
        },
        { type: 'schedule_change', id: approved.id },
      );
    this.notify(t, t.crew, {
      type: 'info',
      title: 'Safety stand-down on Friday',
      message: 'All crews meet at the yard at 7 am for the quarterly safety stand-down.',
      read: true,
      minutesAgo: 60 * 48,
    });

    // Subcontractors: assignments and messages.
    for (const sub of t.people.filter((p) => p.kind === 'subcontractor').slice(0, 1)) {
      const a = this.data.subcontractorAssignments.find(
        (x) => x.subcontractorId === sub.id && x.status === 'active',
      );
      if (a)
        this.notify(
          t,
          sub,
          {
            type: 'info',
            title: 'Added to a project',
            message: `You were assigned to ${projectName(a.projectId)} (${sub.trade ?? 'trade work'}).`,
            read: true,
            minutesAgo: 60 * 24 * 12,
          },
          { type: 'project', id: a.projectId },
        );
      const late = taskOf(sub, overdue);
      if (late)
        this.notify(
          t,
          sub,
          {
            type: 'warning',
            title: 'Task overdue',
            message: `“${late.title}” was due ${shortDate(Date.parse(late.dueDate ?? ''))}.`,
            read: false,
            minutesAgo: 75,
          },
          { type: 'task', id: late.id },
        );
      const reply = this.data.communications.find(
        (x) => x.companyId === t.company.id && x.fromUserId === sub.id,
      );
      if (reply)
        this.notify(
          t,
          sub,
          {
            type: 'info',
            title: 'New reply',
            message: `${t.manager.name} replied to “${reply.subject}”.`,
            read: false,
            minutesAgo: 15,
          },
          { type: 'communication', id: reply.id },
        );
    }
  }

  private rootNotifications(root: { id: string }): void {
    const platform = { company: { id: PLATFORM_COMPANY_ID } };
    this.notify(platform, root, {
      type: 'info',
      title: 'New company onboarded',
      message: 'Harbor Construction started a Basic subscription.',
      read: true,
      minutesAgo: 60 * 24 * 9,
    });
    this.notify(platform, root, {
      type: 'success',
      title: 'Nightly backup completed',
      message: 'The database backup finished and was copied off-site.',
      read: false,
      minutesAgo: 60 * 5,
    });
    this.notify(platform, root, {
      type: 'warning',
      title: 'Photo storage at 72%',
      message: 'Summit Builders is using 72% of its photo storage allowance.',
      read: false,
      minutesAgo: 60 * 2,
    });
  }

  // --- sync versions ------------------------------------------------------------------------------------

  /** Parents get lower versions than their children, so a pull in version order never sees an orphan. */
  private assignVersions(tenants: Tenant[]): void {
    const counters = new Map(tenants.map((t) => [t.company.id, 0]));
    const mirrored: { companyId: string; version: number }[][] = [
      this.data.projects,
      this.data.tasks,
      this.data.projectLogs,
      this.data.photos,
      this.data.scheduleChanges,
    ];
    for (const rows of mirrored)
      for (const row of rows) {
        const v = (counters.get(row.companyId) ?? 0) + 1;
        counters.set(row.companyId, v);
        row.version = v;
      }
    for (const c of this.data.companies) c.lastVersion = counters.get(c.id) ?? 0;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Photos: a small generated site picture (sky, ground, a building with windows, a tower crane)
// ---------------------------------------------------------------------------------------------------------

function drawSitePhoto(rng: Rng, block: readonly [number, number, number]): Uint8Array {
  const w = 320;
  const h = 240;
  const data = new Uint8Array(w * h * 4);
  const horizon = Math.round(h * (0.55 + rng.next() * 0.15));
  const skyTop = [50 + rng.int(0, 50), 110 + rng.int(0, 50), 190 + rng.int(0, 50)] as const;
  const skyLow = [205, 222, 236] as const;
  const groundTop = [150 + rng.int(0, 30), 125 + rng.int(0, 25), 88 + rng.int(0, 20)] as const;
  const groundLow = [92, 76, 58] as const;
  const bw = rng.int(80, 150);
  const bh = rng.int(50, 100);
  const bx = rng.int(20, w - bw - 60);
  const by = horizon - bh;
  const mastX = bx + bw + rng.int(15, 40);
  const jibY = Math.max(8, by - rng.int(20, 45));
  const jitter = rng.int(-20, 20);
  const mix = (a: readonly number[], b: readonly number[], f: number, i: number) =>
    (a[i] ?? 0) * (1 - f) + (b[i] ?? 0) * f;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let c: [number, number, number];
      const inBlock = x >= bx && x < bx + bw && y >= by && y < horizon;
      const inCrane =
        (x >= mastX && x < mastX + 3 && y >= jibY && y < horizon) ||
        (y >= jibY && y < jibY + 3 && x >= mastX - 90 && x < mastX + 30);
      if (inBlock) {
        const window = (x - bx) % 18 >= 6 && (x - bx) % 18 < 14 && (y - by) % 16 >= 5 && (y - by) % 16 < 11;
        const f = window ? 0.45 : 1;
        c = [(block[0] + jitter) * f, (block[1] + jitter) * f, (block[2] + jitter) * f];
      } else if (inCrane) {
        c = [232, 182, 24];
      } else if (y < horizon) {
        const f = y / horizon;
        c = [mix(skyTop, skyLow, f, 0), mix(skyTop, skyLow, f, 1), mix(skyTop, skyLow, f, 2)];
      } else {
        const f = (y - horizon) / (h - horizon);
        c = [
          mix(groundTop, groundLow, f, 0),
          mix(groundTop, groundLow, f, 1),
          mix(groundTop, groundLow, f, 2),
        ];
      }
      const noise = (rng.next() - 0.5) * 10;
      const o = (y * w + x) * 4;
      data[o] = clamp(Math.round(c[0] + noise), 0, 255);
      data[o + 1] = clamp(Math.round(c[1] + noise), 0, 255);
      data[o + 2] = clamp(Math.round(c[2] + noise), 0, 255);
      data[o + 3] = 255;
    }
  }
  return new Uint8Array(jpeg.encode({ data, width: w, height: h }, 80).data);
}

// ---------------------------------------------------------------------------------------------------------
// Demo seed
// ---------------------------------------------------------------------------------------------------------

function demoSeeded(db: Db): boolean {
  return (
    db.select({ id: users.id }).from(users).where(eq(users.email, SEED_MARKER_EMAIL)).get() !== undefined
  );
}

/**
 * Seeds the demo companies, users and a realistic volume of data, once. The slow parts (argon2 and
 * writing photo bytes) happen before the single synchronous write transaction.
 */
export async function seedDemo(
  db: Db,
  store: BlobStore,
  opts: { now?: Date } = {},
): Promise<{ seeded: boolean }> {
  if (demoSeeded(db)) return { seeded: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const data = new Builder((opts.now ?? new Date()).getTime(), passwordHash).build();
  // Bytes first: a photo row marked 'present' must never point at a missing blob.
  await Promise.all(data.blobs.map((b) => store.put(b.key, b.bytes)));
  return writeTx(db, () => {
    // Another process may have seeded while we hashed; its rows win and our blobs are unused.
    if (demoSeeded(db)) return { seeded: false };
    applyRbac(db);
    db.insert(companies).values(data.companies).run();
    db.insert(users).values(data.users).run();
    db.insert(projects).values(data.projects).run();
    db.insert(tasks).values(data.tasks).run();
    db.insert(projectLogs).values(data.projectLogs).run();
    db.insert(photos).values(data.photos).run();
    db.insert(scheduleChanges).values(data.scheduleChanges).run();
    db.insert(subcontractorAssignments).values(data.subcontractorAssignments).run();
    db.insert(invoices).values(data.invoices).run();
    db.insert(timeEntries).values(data.timeEntries).run();
    db.insert(changeOrders).values(data.changeOrders).run();
    db.insert(communications).values(data.communications).run();
    db.insert(riskAssessments).values(data.riskAssessments).run();
    db.insert(projectHealthMetrics).values(data.projectHealthMetrics).run();
    db.insert(healthCheckTemplates).values(data.healthCheckTemplates).run();
    db.insert(userActivities).values(data.userActivities).run();
    db.insert(notifications).values(data.notifications).run();
    return { seeded: true };
  });
}
