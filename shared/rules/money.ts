/**
 * Money typed by a person, as text, becomes integer cents by reading its digits (DESIGN.md section 4):
 * never `dollars * 100`, because binary floats cannot hold most cent values (`19.99 * 100` is
 * `1998.9999999999998`, and rounding it hides the error only until the next sum).
 */

/** The largest amount accepted, in cents: the API's `Cents` limit (`shared/schemas/common.ts`). */
export const MAX_CENTS = 10_000_000_000_000;

export type DollarsParse = { ok: true; cents: number } | { ok: false; message: string };

// Whole dollars with or without thousands separators, then at most two decimals; or only decimals (".5").
const AMOUNT = /^(?:(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{0,2}))?|\.(\d{1,2}))$/;

/**
 * Parses dollars as a person types them ('19.99', '$1,234.56', '.5', '' for none) into whole cents.
 * `label` names the field in the message of a refusal ("Cost impact must not be negative"). With
 * `credit`, a minus sign in front ('-500', '-$500', '$-500') is a credit: negative cents. A minus sign
 * with no amount after it ('-') or a second one ('--5') is no number: refused as such, never $0.
 */
export function parseDollars(
  text: string,
  label = 'Amount',
  options: { credit?: boolean } = {},
): DollarsParse {
  const trimmed = text.trim();
  const signed = /^\$?\s*-\s*\$?\s*/.exec(trimmed);
  const unsigned = signed ? trimmed.slice(signed[0].length) : trimmed.replace(/^\$\s*/, '');
  if (signed && unsigned === '') return notAnAmount(label, options);
  const amount = parseAmount(unsigned, label, options);
  if (!amount.ok || !signed) return amount;
  if (!options.credit) return { ok: false, message: `${label} must not be negative` };
  return { ok: true, cents: amount.cents === 0 ? 0 : -amount.cents };
}

function notAnAmount(label: string, options: { credit?: boolean }): DollarsParse {
  return {
    ok: false,
    message: options.credit
      ? `${label} must be a number, e.g. -500 or 1250.50`
      : `${label} must be an amount in dollars, like 1,234.56`,
  };
}

/** Cents of an amount with no sign and no dollar sign ('1,234.56'; '' is none). */
function parseAmount(text: string, label: string, options: { credit?: boolean }): DollarsParse {
  if (text === '') return { ok: true, cents: 0 };
  const m = AMOUNT.exec(text);
  if (!m) {
    if (/^[\d,]*\.\d{3,}$/.test(text)) {
      return { ok: false, message: `${label} can have at most 2 decimal places (cents)` };
    }
    return notAnAmount(label, options);
  }
  const whole = (m[1] ?? '0').replace(/,/g, '');
  const fraction = (m[2] ?? m[3] ?? '').padEnd(2, '0');
  // Both parts are digit strings, so the sum is exact: no float ever holds a fraction of a dollar.
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  if (digits.length > String(MAX_CENTS).length || Number(digits) > MAX_CENTS) {
    return { ok: false, message: `${label} must be at most ${formatCents(MAX_CENTS)}` };
  }
  return { ok: true, cents: Number(digits) };
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents shown as US dollars ('$1,234.56'), the spec's "amount divided by 100". */
export function formatCents(cents: number): string {
  // Formatting divides once for display only; nothing computed is stored from it.
  return USD.format(cents / 100);
}

const DOLLARS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** Cents as whole US dollars (spec 01 section 9), e.g. 1_234_56 -> "$1,235", -50_000 -> "-$500". */
export function formatDollars(cents: number): string {
  // Rounded here rather than by Intl so a loss under 50 cents reads "$0", never "-$0".
  const whole = Math.round(cents / 100);
  return DOLLARS.format(whole === 0 ? 0 : whole);
}

/** Cents as the text a dollars field starts from ('1234.56', '' for none): `parseDollars` reads it back. */
export function centsToDollarsText(cents: number): string {
  if (cents === 0) return '';
  const whole = Math.trunc(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `${whole}.${rest}`;
}
