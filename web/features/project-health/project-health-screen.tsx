import { useState } from 'react';
import { Activity, Calculator, Plus, ShieldAlert } from 'lucide-react';
import { AsOfNotice, LoadFailed } from '#web/components/as-of-notice.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { isNetworkError, serverMessage } from '#web/lib/api.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import { useBrowserOnline } from '#web/lib/use-online.ts';
import { AddRiskDialog } from './components/add-risk-dialog.tsx';
import { DetailedMetrics } from './components/detailed-metrics.tsx';
import { HealthAverage, HealthCard } from './components/health-overview.tsx';
import { RiskCard } from './components/risk-card.tsx';
import { useHealthLists, useHealthWrites, type HealthMetricsRow } from './hooks/use-health-data.ts';

const ALL = 'all';

/** Why the buttons that need the server are off while the device is offline (issue 12: a stated reason). */
export const OFFLINE_WRITES_REASON =
  'Calculating health and adding risks need the server: they are turned off until you are back online.';
/** Spec 02 section 8: the calculation's failure is a message on the screen, not a toast. */
export const CALCULATE_FAILED = 'Failed to calculate health metrics';

/**
 * Project Health (spec 02 section 2; issue 12): the latest health scores of each project (DESIGN.md
 * section 9, calculated by the server with shared/rules/project-health.ts), their details, and the risk
 * assessments. Reads are kept for offline starts; every write needs the server.
 */
export function ProjectHealthScreen({ user }: { user: CurrentUser }) {
  const { projects, metrics, risks, managers, lists } = useHealthLists();
  const writes = useHealthWrites();
  const online = useBrowserOnline();
  const [selected, setSelected] = useState<{ id: string; name?: string }>({ id: ALL });
  // The name of a selected project that went away (deleted in another tab or on another device).
  const [gone, setGone] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [calcError, setCalcError] = useState<string | null>(null);

  const offline = !online || user.offline === true || lists.some((q) => isNetworkError(q.error));
  const failed = lists.find((q) => q.isError && !isNetworkError(q.error) && q.data === undefined);
  const loaded = lists.every((q) => q.data !== undefined);
  const asOf = Math.min(...lists.map((q) => q.dataUpdatedAt).filter((t) => t > 0));
  const writesDisabled = offline ? OFFLINE_WRITES_REASON : null;

  const allProjects = projects.data ?? [];
  // A selected project deleted elsewhere gives way to the first one left (or All when none is), and the
  // screen says so, rather than keep a choice whose calculation can only fail.
  if (projects.data !== undefined && selected.id !== ALL && !allProjects.some((p) => p.id === selected.id)) {
    const first = allProjects[0];
    setSelected(first ? { id: first.id, name: first.name } : { id: ALL });
    setGone(selected.name ?? 'The selected project');
  }
  const selectedId = allProjects.some((p) => p.id === selected.id) ? selected.id : ALL;
  const pick = (id: string) => {
    setSelected({ id, name: allProjects.find((p) => p.id === id)?.name });
    setGone(null);
  };
  const shown = selectedId === ALL ? allProjects : allProjects.filter((p) => p.id === selectedId);
  const metricsByProject = new Map((metrics.data ?? []).map((m) => [m.projectId, m]));
  const metricsOf = (projectId: string) => metricsByProject.get(projectId);
  const shownMetrics = shown.map((p) => metricsOf(p.id)).filter((m): m is HealthMetricsRow => !!m);
  const projectName = new Map(allProjects.map((p) => [p.id, p.name]));
  const managerName = new Map((managers.data ?? []).map((m) => [m.id, m.name ?? undefined]));
  const shownRisks = (risks.data ?? []).filter((r) => selectedId === ALL || r.projectId === selectedId);

  const calculate = (projectId: string) => {
    setCalcError(null);
    writes.calculate.mutate(projectId, {
      onError: (err) => {
        setCalcError(`${CALCULATE_FAILED}: ${serverMessage(err)}`);
        // The project may be gone since the list was read (404): the picker catches up.
        void projects.refetch();
      },
    });
  };
  const calculating = writes.calculate.isPending ? (writes.calculate.variables ?? null) : null;

  let body;
  if (loaded && allProjects.length === 0) {
    body = (
      <p className="rounded-md border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
        No projects yet. Health scores appear here once a project exists.
      </p>
    );
  } else if (loaded) {
    body = (
      <Tabs defaultValue="overview" className="grid min-w-0 grid-cols-1 gap-4">
        <TabsList aria-label="Project health" className="flex w-full flex-wrap justify-start md:w-auto">
          <TabsTrigger value="overview">Health Overview</TabsTrigger>
          <TabsTrigger value="metrics">Detailed Metrics</TabsTrigger>
          <TabsTrigger value="risks">Risk Assessment</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="grid min-w-0 gap-4">
          <HealthAverage rows={shownMetrics} />
          <ul
            aria-label="Project health cards"
            className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3"
          >
            {shown.map((p) => (
              <HealthCard
                key={p.id}
                project={p}
                metrics={metricsOf(p.id)}
                writesDisabled={writesDisabled}
                refreshing={calculating === p.id}
                onRefresh={calculate}
              />
            ))}
          </ul>
        </TabsContent>
        <TabsContent value="metrics" className="min-w-0">
          <DetailedMetrics projects={shown} metricsOf={metricsOf} />
        </TabsContent>
        <TabsContent value="risks" className="grid min-w-0 gap-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold text-slate-900">Risk Assessments</h2>
            <Button
              onClick={() => setAdding(true)}
              disabled={writesDisabled !== null}
              title={writesDisabled ?? undefined}
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
              Add Risk
            </Button>
          </div>
          {shownRisks.length === 0 ? (
            <div className="grid justify-items-center gap-2 rounded-md border border-dashed border-slate-300 bg-white p-8 text-center">
              <ShieldAlert className="h-8 w-8 text-slate-400" aria-hidden="true" />
              <h3 className="font-semibold text-slate-900">No Risk Assessments</h3>
              <p className="text-sm text-slate-600">
                Risks recorded with Add Risk appear here, with their score out of 25.
              </p>
            </div>
          ) : (
            <ul aria-label="Risk assessments" className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              {shownRisks.map((r) => (
                <RiskCard
                  key={r.id}
                  risk={r}
                  projectName={projectName.get(r.projectId)}
                  assigneeName={r.assignedTo ? managerName.get(r.assignedTo) : undefined}
                />
              ))}
            </ul>
          )}
        </TabsContent>
      </Tabs>
    );
  } else if (failed) {
    body = (
      <LoadFailed
        what="Project health"
        message={serverMessage(failed.error)}
        onRetry={() => lists.forEach((q) => q.isError && void q.refetch())}
      />
    );
  } else if (offline) {
    body = (
      <p className="text-sm text-slate-700">
        You are offline, and project health has not been loaded on this device yet. It will load when the
        connection returns.
      </p>
    );
  } else {
    body = <Spinner label="Loading project health..." className="p-10" />;
  }

  return (
    <section
      className="mx-auto grid max-w-6xl min-w-0 grid-cols-1 gap-4 p-4 md:p-6"
      aria-labelledby="health-heading"
    >
      <header className="flex items-center gap-2">
        <Activity className="h-6 w-6 shrink-0 text-teal-700" aria-hidden="true" />
        <div className="min-w-0">
          <h1 id="health-heading" className="text-2xl font-semibold text-slate-900">
            Project Health
          </h1>
          <p className="text-sm text-slate-600">Schedule, budget, quality and resource scores, and risks.</p>
        </div>
      </header>
      {offline && (
        <AsOfNotice
          what="project health"
          updatedAt={loaded ? asOf : undefined}
          reason={OFFLINE_WRITES_REASON}
        />
      )}
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-0 flex-1 gap-1.5 sm:max-w-sm">
          <Label htmlFor="health-project">Project</Label>
          {/* Opening the picker reads the projects again: one deleted elsewhere is not offered. */}
          <Select
            value={selectedId}
            onValueChange={pick}
            onOpenChange={(open) => {
              if (open) void projects.refetch();
            }}
          >
            <SelectTrigger id="health-project">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All Projects</SelectItem>
              {allProjects.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <Button
          onClick={() => calculate(selectedId)}
          disabled={selectedId === ALL || writesDisabled !== null || calculating !== null}
          title={
            writesDisabled ?? (selectedId === ALL ? 'Select a project to calculate its health' : undefined)
          }
        >
          <Calculator className="h-4 w-4" aria-hidden="true" />
          {calculating !== null && calculating === selectedId ? 'Calculating...' : 'Calculate Health'}
        </Button>
      </div>
      {gone && (
        <p
          role="status"
          className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          {selectedId === ALL
            ? `${gone} is no longer in your projects (deleted elsewhere).`
            : `${gone} is no longer in your projects (deleted elsewhere): showing ${projectName.get(selectedId)}.`}
        </p>
      )}
      {selectedId === ALL && !writesDisabled && (
        <p className="-mt-2 text-xs text-slate-600">Select a project to calculate its health.</p>
      )}
      {calcError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {calcError}
        </p>
      )}
      {body}
      {adding && (
        <AddRiskDialog
          open
          onOpenChange={setAdding}
          projects={allProjects}
          managers={managers.data ?? []}
          initialProjectId={selectedId === ALL ? '' : selectedId}
          onSubmit={async (riskBody) => {
            try {
              await writes.createRisk.mutateAsync(riskBody);
            } catch (err) {
              throw new Error(serverMessage(err), { cause: err });
            }
            toast({ title: 'Risk assessment created successfully' });
          }}
        />
      )}
    </section>
  );
}
