import type { PersonSpec, Pool } from './types.ts';

/** Text the demo draws from for every tenant: task, log and photo pools, health check templates. */

export const ROOT_PERSON: PersonSpec = {
  email: 'root@sitecommand.test',
  firstName: 'Alex',
  lastName: 'Morgan',
  kind: 'root',
};

export type TaskTemplate = readonly [title: string, milestone?: boolean];

export const TASK_POOLS: Record<Pool, readonly TaskTemplate[]> = {
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

export const TASK_NOTES = [
  'Verify dimensions against the latest drawing revision before starting.',
  'Coordinate access with the superintendent the day before.',
  'Photos required at completion.',
  'Special inspector sign-off required.',
  'Check the look-ahead schedule for crane time.',
  'Materials staged at the north laydown area.',
];

export const LOG_TEMPLATES: Record<
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

export const LOG_TYPE_ORDER = ['general', 'issue', 'safety', 'milestone', 'issue'] as const;
export const LOG_STATUS_CYCLE: Record<keyof typeof LOG_TEMPLATES, readonly string[]> = {
  general: ['closed', 'resolved', 'open'],
  issue: ['open', 'in-progress', 'resolved', 'open', 'in-progress', 'closed'],
  milestone: ['closed', 'resolved'],
  safety: ['open', 'closed', 'resolved', 'in-progress'],
};

export type PhotoTemplate = readonly [description: string, tags: readonly string[]];

export const PHOTO_POOLS: Record<Pool, readonly PhotoTemplate[]> = {
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

export const HEALTH_TEMPLATES = [
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
