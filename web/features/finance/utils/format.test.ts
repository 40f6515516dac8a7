import { describe, expect, it } from 'vitest';
import { formatDollars, formatPercent, formatSignedPercent } from './format.ts';

describe('money on the Financial Health tab (spec 01 section 9: cents shown as dollars without decimals)', () => {
  it('shows cents as whole dollars with thousands separators', () => {
    expect(formatDollars(123_456_700)).toBe('$1,234,567');
    expect(formatDollars(0)).toBe('$0');
    expect(formatDollars(99)).toBe('$1');
    expect(formatDollars(49)).toBe('$0');
  });
  it('keeps the sign of a loss', () => {
    expect(formatDollars(-2_500_000)).toBe('-$25,000');
    expect(formatDollars(-40)).toBe('$0');
  });
  it('shows a 12-digit amount exactly', () => {
    expect(formatDollars(987_654_321_000)).toBe('$9,876,543,210');
  });
});

describe('percentages (spec 01 section 9: one decimal)', () => {
  it('rounds to one decimal', () => {
    expect(formatPercent(12.34)).toBe('12.3%');
    expect(formatPercent(12.36)).toBe('12.4%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(-7.25)).toBe('-7.3%');
  });
  it('never shows a negative zero', () => {
    expect(formatPercent(-0.01)).toBe('0.0%');
  });
  it('marks an over-budget variance with a plus sign', () => {
    expect(formatSignedPercent(11.72)).toBe('+11.7%');
    expect(formatSignedPercent(-22.5)).toBe('-22.5%');
    expect(formatSignedPercent(0.01)).toBe('0.0%');
  });
});
