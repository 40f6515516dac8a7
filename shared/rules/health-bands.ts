/** Health score colours, trend and alert styling (spec 02 sections 4 and 9). */

export type HealthColour = 'green' | 'yellow' | 'orange' | 'red';

/** Score 80 or more green, 60 or more yellow, 40 or more orange, else red. */
export function healthColour(score: number): HealthColour {
  if (score >= 80) return 'green';
  if (score >= 60) return 'yellow';
  if (score >= 40) return 'orange';
  return 'red';
}

/** 'Improving' when the overall score is 70 or more, else 'Declining'. */
export function healthTrend(overall: number): 'Improving' | 'Declining' {
  return overall >= 70 ? 'Improving' : 'Declining';
}

/** Alert styling applies to an overall score below 60. */
export function isHealthAlert(overall: number): boolean {
  return overall < 60;
}
