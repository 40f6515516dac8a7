import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { RiskAssessmentCreateSchema } from '#shared/schemas/risk.ts';
import type { ProjectHealth } from '#shared/rules/project-health.ts';
import type { RiskGrade } from '#shared/rules/risk.ts';
import type { ProjectWire } from '#shared/schemas/wire.ts';
import { apiJson } from '#web/lib/api.ts';
import { PERSISTED } from '#web/lib/query-persist.ts';

/** The fields of GET /api/projects the screen reads. */
export type HealthProjectRow = Pick<ProjectWire, 'id' | 'name' | 'status' | 'progress'>;

/** A row of GET /api/project-health-metrics: the latest calculation of a project. */
export interface HealthMetricsRow extends ProjectHealth {
  id: string;
  projectId: string;
  calculatedAt: string;
}

/** A row of GET /api/risk-assessments (spec 02 section 3). */
export interface RiskRow {
  id: string;
  projectId: string;
  riskType: string;
  riskTitle: string;
  riskDescription: string | null;
  probability: RiskGrade;
  impact: RiskGrade;
  riskScore: number;
  status: string;
  mitigationPlan: string | null;
  assignedTo: string | null;
  dueDate: string | null;
  createdAt: string;
}

/** What Add Risk sends: the schema's input (its defaults fill what the form leaves out). */
export type RiskCreateBody = z.input<typeof RiskAssessmentCreateSchema>;

export interface ManagerRow {
  id: string;
  name: string | null;
}

export const PROJECTS_KEY = ['/api/projects'] as const;
export const METRICS_KEY = ['/api/project-health-metrics'] as const;
export const RISKS_KEY = ['/api/risk-assessments'] as const;
export const MANAGERS_KEY = ['/api/users/managers'] as const;

/**
 * The screen's reads, with the spec's calling convention (the key is the URL), kept per user
 * (`PERSISTED`) so a cold start offline shows the last scores and risks with their time.
 */
export function useHealthLists() {
  const projects = useQuery<HealthProjectRow[] | null>({ queryKey: PROJECTS_KEY, meta: PERSISTED });
  const metrics = useQuery<HealthMetricsRow[] | null>({ queryKey: METRICS_KEY, meta: PERSISTED });
  const risks = useQuery<RiskRow[] | null>({ queryKey: RISKS_KEY, meta: PERSISTED });
  // Only names the assignee of a risk: the screen works without it.
  const managers = useQuery<ManagerRow[] | null>({ queryKey: MANAGERS_KEY, meta: PERSISTED });
  return { projects, metrics, risks, managers, lists: [projects, metrics, risks] };
}

/** The writes that need the server: a recalculation (Calculate Health, Refresh) and Add Risk. */
export function useHealthWrites() {
  const qc = useQueryClient();
  return {
    calculate: useMutation({
      mutationFn: (projectId: string) =>
        apiJson<HealthMetricsRow>(
          'POST',
          `/api/project-health-metrics/${encodeURIComponent(projectId)}/calculate`,
        ),
      onSuccess: () => qc.invalidateQueries({ queryKey: METRICS_KEY }),
    }),
    createRisk: useMutation({
      mutationFn: (body: RiskCreateBody) => apiJson<RiskRow>('POST', '/api/risk-assessments', body),
      // A new open risk can raise a project's risk level at its next calculation; the list shows it now.
      onSuccess: () => qc.invalidateQueries({ queryKey: RISKS_KEY }),
    }),
  };
}

export type HealthWrites = ReturnType<typeof useHealthWrites>;
