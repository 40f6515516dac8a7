import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { FinanceInvoice, FinanceProject } from '#shared/rules/financial-health.ts';
import type { ProjectWire } from '#shared/schemas/wire.ts';
import { PERSISTED } from '#web/lib/query-persist.ts';
import { useRefetchAfterPull } from '#web/lib/refetch-after-pull.ts';

/** The fields of GET /api/projects the panel reads. */
export type FinanceProjectRow = Pick<ProjectWire, 'id' | 'name' | 'budget' | 'actualCost'> & FinanceProject;
/** The fields of GET /api/invoices the panel reads (spec 01 section 3). */
export type FinanceInvoiceRow = FinanceInvoice & { id: string };
/** GET /api/time-entries: loaded by the tab (spec 01 section 3), only counted here. */
export interface TimeEntryRow {
  id: string;
}

export const PROJECTS_KEY = ['/api/projects'] as const;
export const INVOICES_KEY = ['/api/invoices'] as const;
export const TIME_ENTRIES_KEY = ['/api/time-entries'] as const;

/**
 * The three lists of the Financial Health tab, read with the spec's calling convention (the key is the
 * URL) and kept per user (`PERSISTED`) so a cold start offline shows the last figures with their time.
 * Nothing is fetched for a user whose role has no finance access: the server would refuse it anyway.
 */
export function useFinanceLists(enabled: boolean) {
  const projects = useQuery<FinanceProjectRow[]>({ queryKey: PROJECTS_KEY, enabled, meta: PERSISTED });
  const invoices = useQuery<FinanceInvoiceRow[]>({ queryKey: INVOICES_KEY, enabled, meta: PERSISTED });
  const timeEntries = useQuery<TimeEntryRow[]>({ queryKey: TIME_ENTRIES_KEY, enabled, meta: PERSISTED });
  const lists: UseQueryResult<unknown[] | null>[] = [projects, invoices, timeEntries];
  // A project's cost changed on another device reaches the Overview through the mirror; the tab's own copy
  // is read again when that pull ends, so the two parts of the Dashboard never disagree for long.
  useRefetchAfterPull(enabled, [PROJECTS_KEY]);
  return { projects, invoices, timeEntries, lists };
}
