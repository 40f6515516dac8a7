import { describe, expect, it } from 'vitest';
import * as rules from './index.ts';

describe('shared/rules index', () => {
  it('exports the rules of every module', () => {
    for (const name of [
      'financialHealth',
      'projectHealthLabel',
      'overviewMetrics',
      'nextPriorityTasks',
      'dueDateText',
      'progressColour',
      'riskScore',
      'healthColour',
      'computeProjectHealth',
    ]) {
      expect(typeof (rules as Record<string, unknown>)[name]).toBe('function');
    }
  });
});
