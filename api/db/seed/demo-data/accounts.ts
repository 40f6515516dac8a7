import type { RoleKind } from '#shared/enums.ts';

/** The one password of every demo account (README). */
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
