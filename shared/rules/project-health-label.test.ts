import { describe, expect, it } from 'vitest';
import { projectHealthLabel } from './project-health-label.ts';

describe('projectHealthLabel', () => {
  it('says Complete for a completed project whatever its progress', () => {
    expect(projectHealthLabel({ status: 'completed', progress: 10 })).toBe('Complete');
  });
  it('says At Risk for a delayed project even at high progress', () => {
    expect(projectHealthLabel({ status: 'delayed', progress: 95 })).toBe('At Risk');
  });
  it('says On Track from 80% progress', () => {
    expect(projectHealthLabel({ status: 'active', progress: 80 })).toBe('On Track');
    expect(projectHealthLabel({ status: 'on-hold', progress: 100 })).toBe('On Track');
  });
  it('says Moderate from 50% to 79%', () => {
    expect(projectHealthLabel({ status: 'active', progress: 79 })).toBe('Moderate');
    expect(projectHealthLabel({ status: 'active', progress: 50 })).toBe('Moderate');
  });
  it('says Behind below 50%', () => {
    expect(projectHealthLabel({ status: 'active', progress: 49 })).toBe('Behind');
  });
});
