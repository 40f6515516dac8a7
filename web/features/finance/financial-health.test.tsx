// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { fakeSyncEngine, json, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import { StaticLocalData } from '#web/app/local-data.tsx';
import { openSyncDb } from '#sync/db.ts';
import { createQueryClient } from '#web/lib/api.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import { FinancialHealth } from './financial-health.tsx';

const MANAGER: CurrentUser = {
  ...TEST_USER,
  email: 'manager@summit.test',
  role: 'manager',
  roleId: 2,
  grants: ['finance:read', 'dashboard:view'],
};
const CREW: CurrentUser = { ...TEST_USER, grants: ['dashboard:view', 'tasks:read'] };

const NOW = new Date('2026-06-15T12:00:00.000Z');

const project = (id: string, name: string, budget: number | null, actualCost: number) => ({
  id,
  name,
  budget,
  actualCost,
});
const invoice = (id: string, status: string, total: number, dueDate: string | null) => ({
  id,
  status,
  total,
  dueDate,
});

// Cents. Budgets $100,000 and $50,000 (the third project has neither budget nor cost).
const PROJECTS = [
  project('p1', 'Riverside Medical', 100_000_00, 80_000_00),
  project('p2', 'Pine Valley Water', 50_000_00, 70_000_00),
  project('p3', 'Idle Lot', null, 0),
];
const INVOICES = [
  invoice('i1', 'paid', 200_000_00, '2026-05-01T00:00:00.000Z'),
  invoice('i2', 'paid', 12_345_67, '2026-05-20T00:00:00.000Z'),
  invoice('i3', 'sent', 30_000_00, '2026-06-01T00:00:00.000Z'),
  invoice('i4', 'sent', 5_000_00, '2026-06-10T00:00:00.000Z'),
  invoice('i5', 'sent', 8_000_00, '2026-07-01T00:00:00.000Z'),
  invoice('i6', 'draft', 1_000_00, '2026-05-01T00:00:00.000Z'),
];
const TIME_ENTRIES = [{ id: 't1' }, { id: 't2' }];

function lists(overrides: Partial<Record<string, () => Response | Promise<Response>>> = {}) {
  return stubApi({
    'GET /api/projects': () => json(PROJECTS),
    'GET /api/invoices': () => json(INVOICES),
    'GET /api/time-entries': () => json(TIME_ENTRIES),
    ...overrides,
  });
}

function renderPanel(user: CurrentUser = MANAGER, client: QueryClient = createQueryClient()) {
  render(
    <QueryClientProvider client={client}>
      <FinancialHealth user={user} now={NOW} />
    </QueryClientProvider>,
  );
  return client;
}

const card = (title: string) => screen.getByRole('listitem', { name: title });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Financial Health panel', () => {
  it("shows the 'Real-time Monitoring' badge and the eight figures of spec 01 section 9, in whole dollars and one-decimal percents", async () => {
    lists();
    renderPanel();
    expect(screen.getByText('Real-time Monitoring')).toBeTruthy();
    await screen.findByRole('list', { name: 'Financial figures' });
    // Revenue: paid $200,000 + $12,345.67. Expenses: $80,000 + $70,000.
    expect(within(card('Total Revenue')).getByText('$212,346')).toBeTruthy();
    expect(within(card('Total Expenses')).getByText('$150,000')).toBeTruthy();
    // Profit $62,345.67; margin 62,345.67 / 212,345.67 = 29.36% (green from 20).
    expect(within(card('Net Profit')).getByText('$62,346')).toBeTruthy();
    expect(within(card('Profit Margin')).getByText('29.4%')).toBeTruthy();
    expect(card('Profit Margin').dataset.band).toBe('green');
    // Outstanding: sent $30,000 + $5,000 + $8,000 and draft $1,000.
    expect(within(card('Outstanding')).getByText('$44,000')).toBeTruthy();
    // Overdue: the two sent invoices due before June 15 (the draft never is).
    expect(within(card('Overdue')).getByText('$35,000')).toBeTruthy();
    expect(within(card('Overdue')).getByText(/2 overdue invoices/)).toBeTruthy();
    // Cash: $62,345.67 + $44,000 (green above 0).
    expect(within(card('Cash Flow')).getByText('$106,346')).toBeTruthy();
    expect(card('Cash Flow').dataset.band).toBe('green');
    // Variance: ($150,000 - $150,000) / $150,000.
    expect(within(card('Budget Variance')).getByText('0.0%')).toBeTruthy();
    expect(card('Budget Variance').dataset.band).toBe('green');
    expect(screen.getByText('From 3 projects, 6 invoices and 2 time entries.')).toBeTruthy();
  });

  it('reads the projects again when a pull that brought rows ends, so it agrees with the Overview', async () => {
    let costs = PROJECTS;
    lists({ 'GET /api/projects': () => json(costs) });
    const db = openSyncDb({ companyId: `company-finance-${Date.now()}`, userId: 'user-1' });
    const { engine, set } = fakeSyncEngine({ rowsDownloaded: 10 });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <StaticLocalData db={db} engine={engine}>
          <FinancialHealth user={MANAGER} now={NOW} />
        </StaticLocalData>
      </QueryClientProvider>,
    );
    expect(
      await within(await screen.findByRole('listitem', { name: 'Total Expenses' })).findByText('$150,000'),
    ).toBeTruthy();
    // Another device raised Pine Valley's cost by $10,000; the pull that brings it ends.
    costs = PROJECTS.map((p) => (p.id === 'p2' ? { ...p, actualCost: 80_000_00 } : p));
    act(() => set({ pulling: true }));
    act(() => set({ pulling: false, rowsDownloaded: 11 }));
    expect(await within(card('Total Expenses')).findByText('$160,000')).toBeTruthy();
    db.close();
  });

  it("shows 'Action Required' with the overdue invoice count when the overdue amount is above 0", async () => {
    lists();
    renderPanel();
    const alert = await screen.findByText('Action Required');
    expect(alert.parentElement?.textContent).toContain('2 overdue invoices totalling $35,000');
  });

  it("shows no 'Action Required' when no sent invoice is past due", async () => {
    lists({ 'GET /api/invoices': () => json(INVOICES.filter((i) => i.id !== 'i3' && i.id !== 'i4')) });
    renderPanel();
    await screen.findByRole('list', { name: 'Financial figures' });
    expect(screen.queryByText('Action Required')).toBeNull();
    expect(within(card('Overdue')).getByText('$0')).toBeTruthy();
  });

  it("warns 'Over budget by 20.0%' when expenses run 20% past the total budget, and colours the variance red", async () => {
    lists({ 'GET /api/projects': () => json([project('p1', 'Tower', 100_000_00, 120_000_00)]) });
    renderPanel();
    expect(await screen.findByText('Over budget by 20.0%')).toBeTruthy();
    expect(within(card('Budget Variance')).getByText('20.0%')).toBeTruthy();
    expect(card('Budget Variance').dataset.band).toBe('red');
  });

  it("warns 'Under budget by 20.0%' the other way", async () => {
    lists({ 'GET /api/projects': () => json([project('p1', 'Tower', 100_000_00, 80_000_00)]) });
    renderPanel();
    expect(await screen.findByText('Under budget by 20.0%')).toBeTruthy();
  });

  it('shows no budget warning at exactly 15% (the warning is for more than 15)', async () => {
    lists({ 'GET /api/projects': () => json([project('p1', 'Tower', 100_000_00, 115_000_00)]) });
    renderPanel();
    await screen.findByRole('list', { name: 'Financial figures' });
    expect(screen.queryByText(/budget by/)).toBeNull();
    expect(card('Budget Variance').dataset.band).toBe('yellow');
  });

  it('lists at most 5 projects in the breakdown, each with budget, actual, remaining and a variance badge', async () => {
    const many = Array.from({ length: 7 }, (_, i) => project(`p${i}`, `Project ${i}`, 10_000_00, 5_000_00));
    lists({ 'GET /api/projects': () => json([project('none', 'No Money', null, 0), ...many]) });
    renderPanel();
    const breakdown = await screen.findByRole('region', { name: 'Project Breakdown' });
    const rows = within(breakdown).getAllByRole('listitem');
    expect(rows).toHaveLength(5);
    expect(within(breakdown).queryByText('No Money')).toBeNull();
    const first = within(breakdown).getByRole('listitem', { name: 'Project 0' });
    expect(within(first).getByText('Budget').nextSibling?.textContent).toBe('$10,000');
    expect(within(first).getByText('Actual').nextSibling?.textContent).toBe('$5,000');
    expect(within(first).getByText('Remaining').nextSibling?.textContent).toBe('$5,000');
    // (5,000 - 10,000) / 10,000 = -50%: green below -10%.
    expect(within(first).getByText('-50.0%').dataset.badge).toBe('green');
  });

  it('caps the bar of a project over its budget at 100% and shows it red, with a negative remaining', async () => {
    lists();
    renderPanel();
    const row = await screen.findByRole('listitem', { name: 'Pine Valley Water' });
    // $70,000 of $50,000 is 140% used: the bar stops at 100.
    expect(
      within(row)
        .getByRole('progressbar', { name: 'Budget used on Pine Valley Water' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    expect(within(row).getByText('+40.0%').dataset.badge).toBe('red');
    // The bar takes the badge's colour alone (two background classes would leave it to the stylesheet).
    const fill = within(row).getByRole('progressbar').firstElementChild;
    expect(fill?.classList.contains('bg-red-600')).toBe(true);
    expect(fill?.classList.contains('bg-teal-600')).toBe(false);
    expect(within(row).getByText('Remaining').nextSibling?.textContent).toBe('-$20,000');
    const under = screen.getByRole('listitem', { name: 'Riverside Medical' });
    expect(within(under).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('80');
    // -20% is below -10%: green.
    expect(within(under).getByText('-20.0%').dataset.badge).toBe('green');
  });

  it('draws the budget-against-actual chart once the figures are in', async () => {
    lists();
    renderPanel();
    const chart = await screen.findByRole('img', { name: /Budget against actual cost per project/ });
    expect(chart.getAttribute('aria-label')).toContain('Pine Valley Water: budget $50,000, actual $70,000');
  });

  it('shows four pulsing placeholder cards while any of the three lists is still loading', async () => {
    let release: (r: Response) => void = () => {};
    lists({ 'GET /api/time-entries': () => new Promise<Response>((r) => (release = r)) });
    renderPanel();
    const loading = await screen.findByRole('status', { name: 'Loading financial figures' });
    expect(within(loading).getAllByTestId('finance-placeholder')).toHaveLength(4);
    expect(screen.queryByRole('list', { name: 'Financial figures' })).toBeNull();
    release(json(TIME_ENTRIES));
    await screen.findByRole('list', { name: 'Financial figures' });
    expect(screen.queryByRole('status', { name: 'Loading financial figures' })).toBeNull();
  });

  it('says the figures could not be loaded, with the server message, and Try again loads them', async () => {
    let fail = true;
    lists({
      'GET /api/invoices': () =>
        fail ? json({ message: 'Database is busy', code: 'INTERNAL' }, 500) : json(INVOICES),
    });
    renderPanel();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The financial figures could not be loaded.');
    expect(alert.textContent).toContain('Database is busy');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Financial figures' })).toBeTruthy();
  });

  it('says access is denied to a role without finance, and asks the server for nothing', async () => {
    const fetch = lists();
    renderPanel(CREW);
    expect(screen.getByText('Access Denied')).toBeTruthy();
    expect(screen.getByText('Financial health is available to admins and managers only.')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.queryByText('Real-time Monitoring')).toBeNull();
  });

  it('says access is denied when the server refuses the lists (403)', async () => {
    lists({ 'GET /api/invoices': () => json({ message: 'Not allowed', code: 'FORBIDDEN' }, 403) });
    renderPanel();
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(screen.queryByText('$212,346')).toBeNull();
  });

  it('offline, shows the kept figures with the "as of" line instead of an error', async () => {
    const client = createQueryClient();
    const at = new Date('2026-06-14T15:30:00').getTime();
    client.setQueryData(['/api/projects'], PROJECTS, { updatedAt: at });
    client.setQueryData(['/api/invoices'], INVOICES, { updatedAt: at });
    client.setQueryData(['/api/time-entries'], TIME_ENTRIES, { updatedAt: at });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderPanel(MANAGER, client);
    expect(await screen.findByText('Offline: showing the figures as of Jun 14, 3:30 PM.')).toBeTruthy();
    expect(within(card('Total Revenue')).getByText('$212,346')).toBeTruthy();
    expect(screen.queryByText('The financial figures could not be loaded.')).toBeNull();
  });
});
