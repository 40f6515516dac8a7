import { describe, expect, it } from 'vitest';
import { centsToDollarsText, formatCents, parseDollars } from './money.ts';

const cents = (text: string) => {
  const r = parseDollars(text, 'Cost impact');
  if (!r.ok) throw new Error(r.message);
  return r.cents;
};
const refusal = (text: string) => {
  const r = parseDollars(text, 'Cost impact');
  return r.ok ? null : r.message;
};

describe('parseDollars: dollars text to cents by its digits', () => {
  it('reads one cent', () => expect(cents('0.01')).toBe(1));
  it('reads 19.99 as 1999 cents (a float multiply gives 1998.9999999999998)', () => {
    expect(19.99 * 100).not.toBe(1999);
    expect(cents('19.99')).toBe(1999);
  });
  it('reads thousands separators and a dollar sign', () => {
    expect(cents('1,234.56')).toBe(123456);
    expect(cents('$1,234.56')).toBe(123456);
  });
  it('reads a 12-digit amount exactly', () => {
    expect(cents('9,999,999,999.99')).toBe(999_999_999_999);
    expect(cents('99999999999.99')).toBe(9_999_999_999_999);
  });
  it('reads whole dollars, one decimal and decimals alone', () => {
    expect(cents('250')).toBe(25000);
    expect(cents('4.5')).toBe(450);
    expect(cents('.5')).toBe(50);
    expect(cents('7.')).toBe(700);
  });
  it('takes an empty field as no cost', () => {
    expect(cents('')).toBe(0);
    expect(cents('   ')).toBe(0);
  });
  it('refuses text that is not an amount, with the field named', () => {
    expect(refusal('abc')).toBe('Cost impact must be an amount in dollars, like 1,234.56');
    expect(refusal('1,23.4')).toBe('Cost impact must be an amount in dollars, like 1,234.56');
    expect(refusal('1e5')).toBe('Cost impact must be an amount in dollars, like 1,234.56');
    expect(refusal('12.3.4')).toBe('Cost impact must be an amount in dollars, like 1,234.56');
  });
  it('refuses negative amounts and fractions of a cent', () => {
    expect(refusal('-5')).toBe('Cost impact must not be negative');
    expect(refusal('$-5')).toBe('Cost impact must not be negative');
    expect(refusal('-$5')).toBe('Cost impact must not be negative');
    // A minus sign with no amount, or two of them, is no number at all.
    expect(refusal('-')).toBe('Cost impact must be an amount in dollars, like 1,234.56');
    expect(refusal('--5')).toBe('Cost impact must be an amount in dollars, like 1,234.56');
    expect(refusal('1.999')).toBe('Cost impact can have at most 2 decimal places (cents)');
  });
  it('refuses more than the API accepts ($100 billion)', () => {
    expect(cents('100,000,000,000')).toBe(10_000_000_000_000);
    expect(refusal('100000000000.01')).toBe('Cost impact must be at most $100,000,000,000.00');
    expect(refusal('99999999999999999999')).toBe('Cost impact must be at most $100,000,000,000.00');
  });
});

describe('a credit, where the field allows one', () => {
  const credit = (text: string) => parseDollars(text, 'Cost impact', { credit: true });
  it('reads a minus sign in front as a credit, in negative cents', () => {
    expect(credit('-500')).toEqual({ ok: true, cents: -500_00 });
    expect(credit('-$1,234.56')).toEqual({ ok: true, cents: -1_234_56 });
    expect(credit('$-0.05')).toEqual({ ok: true, cents: -5 });
    expect(credit('1,234.56')).toEqual({ ok: true, cents: 1_234_56 });
  });
  it('refuses what it refuses for a cost, named the same way', () => {
    expect(credit('-1.999')).toEqual({
      ok: false,
      message: 'Cost impact can have at most 2 decimal places (cents)',
    });
  });
  it('says a text that is not a number is not one, rather than read it as $0 or as negative', () => {
    const notANumber = { ok: false, message: 'Cost impact must be a number, e.g. -500 or 1250.50' };
    for (const text of ['-', ' - ', '$-', '-$', '--5', '-$-5', '- -5', '-abc', 'abc', '5-']) {
      expect(credit(text), text).toEqual(notANumber);
    }
    expect(credit('-5')).toEqual({ ok: true, cents: -5_00 });
  });
});

describe('formatCents and centsToDollarsText', () => {
  it('shows cents as dollars', () => {
    expect(formatCents(123456)).toBe('$1,234.56');
    expect(formatCents(1)).toBe('$0.01');
    expect(formatCents(0)).toBe('$0.00');
  });
  it('gives text that parses back to the same cents', () => {
    for (const c of [1, 1999, 123456, 999_999_999_999]) expect(cents(centsToDollarsText(c))).toBe(c);
    expect(centsToDollarsText(0)).toBe('');
  });
});
