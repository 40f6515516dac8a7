import { describe, expect, it } from 'vitest';
import {
  completedPercent,
  PROGRESS_AMBER,
  PROGRESS_GREEN,
  PROGRESS_RED,
  progressColour,
} from './progress-colour.ts';

const now = new Date('2025-03-10T12:00:00.000Z');
const t = (status: string, dueDate: string | null = null) => ({ status, dueDate });

describe('completedPercent', () => {
  it('rounds the share of completed tasks', () => {
    expect(completedPercent([t('completed'), t('pending'), t('pending')])).toBe(33);
    expect(completedPercent([t('completed'), t('completed'), t('pending')])).toBe(67);
    expect(completedPercent([])).toBe(0);
  });
});

describe('progressColour', () => {
  it('is green by default, with no tasks', () => {
    expect(progressColour([], now, 'UTC')).toBe(PROGRESS_GREEN);
  });
  it('is green at exactly 50% completed', () => {
    expect(progressColour([t('completed'), t('pending')], now, 'UTC')).toBe(PROGRESS_GREEN);
  });
  it('is amber under 50% completed', () => {
    expect(progressColour([t('completed'), t('pending'), t('pending')], now, 'UTC')).toBe(PROGRESS_AMBER);
  });
  it('is red when any task is overdue, even at high completion', () => {
    expect(progressColour([t('completed'), t('completed'), t('pending', '2025-03-09')], now, 'UTC')).toBe(
      PROGRESS_RED,
    );
  });
  it('ignores a completed task past its due date', () => {
    expect(progressColour([t('completed', '2025-03-01')], now, 'UTC')).toBe(PROGRESS_GREEN);
  });
  it('uses the spec colours', () => {
    expect([PROGRESS_GREEN, PROGRESS_RED, PROGRESS_AMBER]).toEqual(['#43A047', '#E53935', '#FB8C00']);
  });
});
