/**
 * How the Financial Health tab shows its figures (spec 01 section 9): money arrives in integer cents and is
 * shown in US dollars without decimals (`formatDollars`, shared with the budget alerts); percentages are
 * shown to one decimal.
 */
export { formatDollars } from '#shared/rules/money.ts';

/** A percentage to one decimal, e.g. 12.345 -> "12.3%". */
export function formatPercent(value: number): string {
  const text = value.toFixed(1);
  return `${text === '-0.0' ? '0.0' : text}%`;
}

/** A signed percentage for variances, e.g. 12.3 -> "+12.3%", -4 -> "-4.0%". */
export function formatSignedPercent(value: number): string {
  const text = formatPercent(value);
  return value > 0 && text !== '0.0%' ? `+${text}` : text;
}
