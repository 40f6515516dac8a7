import { describe, expect, it } from 'vitest';
import { healthColour, healthTrend, isHealthAlert } from './health-bands.ts';

describe('healthColour', () => {
  it('is green from 80', () => {
    expect(healthColour(80)).toBe('green');
    expect(healthColour(100)).toBe('green');
  });
  it('is yellow from 60 to 79', () => {
    expect(healthColour(79)).toBe('yellow');
    expect(healthColour(60)).toBe('yellow');
  });
  it('is orange from 40 to 59', () => {
    expect(healthColour(59)).toBe('orange');
    expect(healthColour(40)).toBe('orange');
  });
  it('is red below 40', () => {
    expect(healthColour(39)).toBe('red');
    expect(healthColour(0)).toBe('red');
  });
});

describe('healthTrend', () => {
  it('says Improving from 70 and Declining below', () => {
    expect(healthTrend(70)).toBe('Improving');
    expect(healthTrend(69)).toBe('Declining');
  });
});

describe('isHealthAlert', () => {
  it('alerts below 60 only', () => {
    expect(isHealthAlert(59)).toBe(true);
    expect(isHealthAlert(60)).toBe(false);
  });
});
