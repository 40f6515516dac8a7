import { describe, expect, it } from 'vitest';
import {
  isOpenRisk,
  MAX_RISK_SCORE,
  maxRiskLevel,
  probabilityLabel,
  RISK_WEIGHTS,
  riskLevelFromScore,
  riskScore,
} from './risk.ts';

describe('risk weights and score', () => {
  it('weighs low 1, medium 3, high 5', () => {
    expect(RISK_WEIGHTS).toEqual({ low: 1, medium: 3, high: 5 });
  });
  it('scores impact weight times probability weight, out of 25', () => {
    expect(riskScore('low', 'low')).toBe(1);
    expect(riskScore('medium', 'medium')).toBe(9);
    expect(riskScore('high', 'medium')).toBe(15);
    expect(riskScore('low', 'high')).toBe(5);
    expect(riskScore('high', 'high')).toBe(MAX_RISK_SCORE);
  });
});

describe('riskLevelFromScore', () => {
  it('is low up to 3', () => {
    expect(riskLevelFromScore(1)).toBe('low');
    expect(riskLevelFromScore(3)).toBe('low');
  });
  it('is medium from 4 to 9', () => {
    expect(riskLevelFromScore(4)).toBe('medium');
    expect(riskLevelFromScore(9)).toBe('medium');
  });
  it('is high from 10 to 15', () => {
    expect(riskLevelFromScore(10)).toBe('high');
    expect(riskLevelFromScore(15)).toBe('high');
  });
  it('is critical above 15', () => {
    expect(riskLevelFromScore(16)).toBe('critical');
    expect(riskLevelFromScore(25)).toBe('critical');
  });
});

describe('probabilityLabel', () => {
  it('reads low 10-30%, medium 30-70%, high 70-90%', () => {
    expect([probabilityLabel('low'), probabilityLabel('medium'), probabilityLabel('high')]).toEqual([
      '10-30%',
      '30-70%',
      '70-90%',
    ]);
  });
});

describe('maxRiskLevel', () => {
  it('keeps the more severe level either way round', () => {
    expect(maxRiskLevel('low', 'high')).toBe('high');
    expect(maxRiskLevel('critical', 'medium')).toBe('critical');
    expect(maxRiskLevel('medium', 'medium')).toBe('medium');
  });
});

describe('isOpenRisk', () => {
  it('counts identified and monitoring risks, not mitigated or closed ones', () => {
    expect(
      ['identified', 'monitoring', 'mitigated', 'closed'].map((status) => isOpenRisk({ status })),
    ).toEqual([true, true, false, false]);
  });
});
