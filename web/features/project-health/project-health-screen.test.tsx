// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { json, polyfillDom, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { createQueryClient } from '#web/lib/api.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import type { HealthMetricsRow, RiskRow } from './hooks/use-health-data.ts';
import { ProjectHealthScreen } from './project-health-screen.tsx';

const MANAGER: CurrentUser = {
  ...TEST_USER,
  role: 'manager',
  grants: ['project_health:view', 'project_health:read', 'project_health:calculate', 'risks:create'],
};

const P1 = '0195a0a0-0000-7000-8000-000000000001';
const P2 = '0195a0a0-0000-7000-8000-000000000002';
const P3 = '0195a0a0-0000-7000-8000-000000000003';
const BOSS = '0195a0a0-0000-7000-8000-0000000000b1';
const PROJECTS = [
  { id: P2, name: 'Lincoln Gym', status: 'delayed', progress: 71 },
  { id: P3, name: 'Maple Townhomes', status: 'active', progress: 38 },
  { id: P1, name: 'Riverside Medical', status: 'active', progress: 62 },
];
const metric = (
  projectId: string,
  [overall, schedule, budget, quality, resources]: number[],
  riskLevel: HealthMetricsRow['riskLevel'],
): HealthMetricsRow => ({
  id: `m-${projectId}`,
  projectId,
  overallHealthScore: overall ?? 0,
  scheduleHealth: schedule ?? 0,
  budgetHealth: budget ?? 0,
  qualityHealth: quality ?? 0,
  resourceHealth: resources ?? 0,
  riskLevel,
  calculatedAt: '2026-06-14T15:30:00.000Z',
});
const RISK: RiskRow = {
  id: 'r1',
  projectId: P2,
  riskType: 'schedule',
  riskTitle: 'Sports floor delivery delay',
  riskDescription: 'Four-week backlog at the supplier.',
  probability: 'high',
  impact: 'high',
  riskScore: 25,
  status: 'monitoring',
  mitigationPlan: 'Alternate supplier pre-approved.',
  assignedTo: BOSS,
  dueDate: '2026-06-22T00:00:00.000Z',
  createdAt: '2026-06-01T00:00:00.000Z',
};

let metrics: HealthMetricsRow[];
let risks: RiskRow[];

function api(
  overrides: Record<string, (url: string, init?: RequestInit) => Response | Promise<Response>> = {},
) {
  return stubApi({
    'GET /api/projects': () => json(PROJECTS),
    'GET /api/project-health-metrics': () => json(metrics),
    'GET /api/risk-assessments': () => json(risks),
    'GET /api/users/managers': () => json([{ id: BOSS, name: 'Morgan Manager' }]),
    ...overrides,
  });
}

function renderScreen(client: QueryClient = createQueryClient()) {
  render(
    <QueryClientProvider client={client}>
      <ProjectHealthScreen user={MANAGER} />
      <Toaster />
    </QueryClientProvider>,
  );
  return client;
}

async function pickProject(name: string) {
  await userEvent.click(screen.getByLabelText('Project'));
  await userEvent.click(await screen.findByRole('option', { name }));
}

const card = (name: string) =>
  within(screen.getByRole('list', { name: 'Project health cards' })).getByRole('listitem', { name });
const scoreOf = (scope: HTMLElement, name: string) => within(scope).getByText(name).nextSibling?.textContent;

beforeAll(polyfillDom);
beforeEach(() => {
  metrics = [metric(P1, [78, 70, 90, 80, 65], 'medium'), metric(P2, [45, 30, 50, 60, 40], 'critical')];
  risks = [RISK];
});
afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
});

describe('Project Health', () => {
  it('shows a card per project: overall ring, four sub-scores, risk badge, trend, last updated, progress', async () => {
    api();
    renderScreen();
    await screen.findByRole('list', { name: 'Project health cards' });
    const riverside = card('Riverside Medical');
    expect(within(riverside).getByRole('img', { name: 'Overall health 78 of 100' })).toBeTruthy();
    expect(scoreOf(riverside, 'Schedule')).toBe('70');
    expect(scoreOf(riverside, 'Budget')).toBe('90');
    expect(scoreOf(riverside, 'Quality')).toBe('80');
    expect(scoreOf(riverside, 'Resources')).toBe('65');
    expect(within(riverside).getByText('Medium Risk')).toBeTruthy();
    // 70 or more is 'Improving' (spec 02 section 4).
    expect(within(riverside).getByText('Improving')).toBeTruthy();
    expect(within(riverside).getByText(/^Last updated Jun 14, 2026/)).toBeTruthy();
    expect(
      within(riverside)
        .getByRole('progressbar', { name: 'Progress of Riverside Medical' })
        .getAttribute('aria-valuenow'),
    ).toBe('62');
    const lincoln = card('Lincoln Gym');
    expect(within(lincoln).getByText('Declining')).toBeTruthy();
    expect(within(lincoln).getByText('Critical Risk')).toBeTruthy();
    // Below 60: alert styling, said in words too.
    expect(within(lincoln).getByText('Needs attention')).toBeTruthy();
    expect(within(card('Maple Townhomes')).getByText(/Not calculated yet/)).toBeTruthy();
  });

  it('averages the five scores over the shown projects that have been calculated', async () => {
    api();
    renderScreen();
    const average = await screen.findByRole('region', { name: 'Average across 2 projects' });
    // (78 + 45) / 2 = 61.5 -> 62; (70 + 30) / 2 = 50; (90 + 50) / 2 = 70; (80 + 60) / 2 = 70; (65 + 40) / 2 = 52.5 -> 53.
    expect(scoreOf(average, 'Overall')).toBe('62');
    expect(scoreOf(average, 'Schedule')).toBe('50');
    expect(scoreOf(average, 'Budget')).toBe('70');
    expect(scoreOf(average, 'Quality')).toBe('70');
    expect(scoreOf(average, 'Resources')).toBe('53');
  });

  it('turns Calculate Health on only for one project, and shows the new scores after it', async () => {
    const calls: string[] = [];
    api({
      'POST /api/project-health-metrics/0195a0a0-0000-7000-8000-000000000003/calculate': (url) => {
        calls.push(url);
        metrics = [...metrics, metric(P3, [55, 60, 100, 10, 20], 'high')];
        return json(metrics.at(-1), 201);
      },
    });
    renderScreen();
    await screen.findByRole('list', { name: 'Project health cards' });
    const button = screen.getByRole('button', { name: 'Calculate Health' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await pickProject('Maple Townhomes');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    // One project selected: its card only.
    expect(
      screen.getAllByRole('listitem').filter((li) => li.closest('[aria-label="Project health cards"]')),
    ).toHaveLength(1);
    await userEvent.click(button);
    await waitFor(() =>
      expect(
        within(card('Maple Townhomes')).getByRole('img', { name: 'Overall health 55 of 100' }),
      ).toBeTruthy(),
    );
    expect(calls).toHaveLength(1);
    expect(within(card('Maple Townhomes')).getByText('High Risk')).toBeTruthy();
  });

  it("says 'Failed to calculate health metrics' when the calculation fails", async () => {
    api({
      'POST /api/project-health-metrics/0195a0a0-0000-7000-8000-000000000001/calculate': () =>
        json({ message: 'Project not found', code: 'NOT_FOUND' }, 404),
    });
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh health of Riverside Medical' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to calculate health metrics: Project not found',
    );
  });

  it('the picker shows the projects as they are now: one deleted elsewhere is gone when it opens', async () => {
    let projects = PROJECTS;
    api({ 'GET /api/projects': () => json(projects) });
    renderScreen();
    await screen.findByRole('list', { name: 'Project health cards' });
    // Another tab or device deletes Maple Townhomes.
    projects = PROJECTS.filter((p) => p.id !== P3);
    await userEvent.click(screen.getByLabelText('Project'));
    expect(await screen.findByRole('option', { name: 'Lincoln Gym' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Maple Townhomes' })).toBeNull());
  });

  it('a selected project deleted elsewhere gives way to the first one left, with a note saying so', async () => {
    let projects = PROJECTS;
    api({
      'GET /api/projects': () => json(projects),
      'POST /api/project-health-metrics/0195a0a0-0000-7000-8000-000000000003/calculate': () =>
        json({ message: 'Project not found', code: 'NOT_FOUND' }, 404),
    });
    renderScreen();
    await screen.findByRole('list', { name: 'Project health cards' });
    await pickProject('Maple Townhomes');
    projects = PROJECTS.filter((p) => p.id !== P3);
    await userEvent.click(screen.getByRole('button', { name: 'Calculate Health' }));
    expect(
      await screen.findByText(
        'Maple Townhomes is no longer in your projects (deleted elsewhere): showing Lincoln Gym.',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('Project').textContent).toBe('Lincoln Gym');
    expect(card('Lincoln Gym')).toBeTruthy();
  });

  it('when the last project is deleted elsewhere, the screen says there are none', async () => {
    let projects = [PROJECTS[1]!];
    api({ 'GET /api/projects': () => json(projects) });
    renderScreen();
    await screen.findByRole('list', { name: 'Project health cards' });
    await pickProject('Maple Townhomes');
    projects = [];
    await userEvent.click(screen.getByLabelText('Project'));
    expect(
      await screen.findByText('No projects yet. Health scores appear here once a project exists.'),
    ).toBeTruthy();
    expect(screen.getByText(/^Maple Townhomes is no longer in your projects/)).toBeTruthy();
  });

  it('shows the four score cards per project on Detailed Metrics', async () => {
    api();
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Detailed Metrics' }));
    const section = screen.getByRole('region', { name: 'Metrics of Lincoln Gym' });
    const cards = within(section).getAllByRole('listitem');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Schedule score',
      'Budget score',
      'Quality score',
      'Resources score',
    ]);
    expect(within(cards[0]!).getByText('30')).toBeTruthy();
    expect(cards[0]!.textContent).toContain('Critical');
  });

  it('shows risk cards with the score out of 25, and No Risk Assessments for a project without any', async () => {
    api();
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Risk Assessment' }));
    const risk = screen.getByRole('listitem', { name: 'Sports floor delivery delay' });
    expect(risk.textContent).toContain('25/25');
    expect(risk.textContent).toContain('High (70-90%)');
    expect(risk.textContent).toContain('Monitoring');
    expect(risk.textContent).toContain('Assigned to Morgan Manager');
    expect(risk.textContent).toContain('Due Jun 22, 2026');
    await pickProject('Riverside Medical');
    expect(screen.getByText('No Risk Assessments')).toBeTruthy();
  });

  it('Add Risk: asks for a title, sends the form, shows the new risk and the success toast', async () => {
    let sent: unknown;
    api({
      'POST /api/risk-assessments': (_url, init) => {
        sent = JSON.parse(String(init?.body));
        const created: RiskRow = {
          ...RISK,
          id: 'r2',
          projectId: P1,
          riskTitle: 'Crane wind shutdowns',
          riskType: 'weather',
          riskDescription: null,
          mitigationPlan: null,
          probability: 'medium',
          impact: 'high',
          riskScore: 15,
          status: 'identified',
          assignedTo: null,
          dueDate: null,
        };
        risks = [created, ...risks];
        return json(created, 201);
      },
    });
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Risk Assessment' }));
    await pickProject('Riverside Medical');
    await userEvent.click(screen.getByRole('button', { name: 'Add Risk' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Risk' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Risk' }));
    expect(await within(dialog).findByText('Risk title is required')).toBeTruthy();
    expect(sent).toBeUndefined();

    await userEvent.type(within(dialog).getByLabelText(/Risk title/), 'Crane wind shutdowns');
    await userEvent.click(within(dialog).getByLabelText('Risk type'));
    await userEvent.click(await screen.findByRole('option', { name: 'Weather' }));
    await userEvent.click(within(dialog).getByLabelText('Impact'));
    await userEvent.click(await screen.findByRole('option', { name: 'High' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Risk' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Risk' })).toBeNull());
    expect(sent).toEqual({
      projectId: P1,
      riskType: 'weather',
      riskTitle: 'Crane wind shutdowns',
      riskDescription: null,
      probability: 'medium',
      impact: 'high',
      status: 'identified',
      mitigationPlan: null,
      assignedTo: null,
      dueDate: null,
    });
    expect(await screen.findByText('Risk assessment created successfully')).toBeTruthy();
    expect((await screen.findByRole('listitem', { name: 'Crane wind shutdowns' })).textContent).toContain(
      '15/25',
    );
  });

  it("Add Risk keeps the dialog open with 'Failed to create risk assessment' when the server refuses", async () => {
    api({
      'POST /api/risk-assessments': () =>
        json({ message: 'Risk title is required', code: 'VALIDATION' }, 400),
    });
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Risk Assessment' }));
    await pickProject('Riverside Medical');
    await userEvent.click(screen.getByRole('button', { name: 'Add Risk' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Risk' });
    await userEvent.type(within(dialog).getByLabelText(/Risk title/), 'Frost');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Risk' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Failed to create risk assessment');
    expect(within(dialog).getByLabelText<HTMLInputElement>(/Risk title/).value).toBe('Frost');
  });

  it('offline: the kept scores with the "as of" line, and Calculate, Refresh and Add Risk off with the reason', async () => {
    const client = createQueryClient();
    const at = new Date('2026-06-14T16:45:00').getTime();
    client.setQueryData(['/api/projects'], PROJECTS, { updatedAt: at });
    client.setQueryData(['/api/project-health-metrics'], metrics, { updatedAt: at });
    client.setQueryData(['/api/risk-assessments'], risks, { updatedAt: at });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderScreen(client);
    expect(await screen.findByText('Offline: showing project health as of Jun 14, 4:45 PM.')).toBeTruthy();
    expect(
      screen.getByText(
        'Calculating health and adding risks need the server: they are turned off until you are back online.',
      ),
    ).toBeTruthy();
    expect(
      within(card('Riverside Medical')).getByRole('img', { name: 'Overall health 78 of 100' }),
    ).toBeTruthy();
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Refresh health of Riverside Medical' }).disabled,
    ).toBe(true);
    await pickProject('Riverside Medical');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Calculate Health' }).disabled).toBe(true);
    await userEvent.click(screen.getByRole('tab', { name: 'Risk Assessment' }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add Risk' }).disabled).toBe(true);
  });

  it('says project health could not be loaded, and Try again loads it', async () => {
    let fail = true;
    api({
      'GET /api/project-health-metrics': () =>
        fail ? json({ message: 'Busy', code: 'INTERNAL' }, 500) : json(metrics),
    });
    renderScreen();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Project health could not be loaded.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Project health cards' })).toBeTruthy();
  });
});
