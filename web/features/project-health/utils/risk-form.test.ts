import { describe, expect, it } from 'vitest';
import { emptyRiskForm, validateRiskForm } from './risk-form.ts';

const PROJECT = '0195a0a0-0000-7000-8000-0000000000aa';

describe('the Add Risk form (spec 02 section 5)', () => {
  it('starts as a schedule risk, medium probability and impact, identified', () => {
    expect(emptyRiskForm()).toMatchObject({
      riskType: 'schedule',
      probability: 'medium',
      impact: 'medium',
      status: 'identified',
    });
  });

  it('asks for a project and a title', () => {
    const result = validateRiskForm({ ...emptyRiskForm(), riskTitle: '   ' });
    expect(result).toEqual({
      ok: false,
      errors: { projectId: 'Please select a project', riskTitle: 'Risk title is required' },
    });
  });

  it('says a text is too long, naming it, not that it is missing', () => {
    const result = validateRiskForm({
      ...emptyRiskForm(PROJECT),
      riskTitle: 'x'.repeat(10_000),
      mitigationPlan: 'y'.repeat(5001),
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        riskTitle: 'Risk title must be at most 200 characters',
        mitigationPlan: 'Mitigation plan must be at most 5000 characters',
      },
    });
  });

  it('sends no date and no assignee as null, and empty texts as null', () => {
    const result = validateRiskForm({ ...emptyRiskForm(PROJECT), riskTitle: ' Crane wind ' });
    expect(result).toEqual({
      ok: true,
      data: {
        projectId: PROJECT,
        riskType: 'schedule',
        riskTitle: 'Crane wind',
        riskDescription: null,
        probability: 'medium',
        impact: 'medium',
        status: 'identified',
        mitigationPlan: null,
        assignedTo: null,
        dueDate: null,
      },
    });
  });

  it('sends a picked due day as it was typed (the server stores the day at midnight UTC)', () => {
    const result = validateRiskForm({ ...emptyRiskForm(PROJECT), riskTitle: 'Frost', dueDate: '2026-12-01' });
    expect(result.ok && result.data.dueDate).toBe('2026-12-01');
  });
});
