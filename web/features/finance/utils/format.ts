/**
 * How the Financial Health tab shows its figures (spec 01 section 9): money arrives in integer cents and is
 * shown in US dollars without decimals; percentages are shown to one decimal.
 */
const DOLLARS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** Cents as whole US dollars, e.g. 1_234_56 -> "$1,235", -50_000 -> "-$500". */
export function formatDollars(cents: number): string {
  // Rounded here rather than by Intl so a loss under 50 cents reads "$0", never "-$0".
  const whole = Math.round(cents / 100);
  return DOLLARS.format(whole === 0 ? 0 : whole);
}

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
