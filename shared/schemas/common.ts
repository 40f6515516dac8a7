import { z } from 'zod';

/** Row ids are UUIDs (v7 when we make them); a device may send its own for rows it creates offline. */
export const Id = z.uuid({
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be a valid id'),
});

/** A date or date-time on the wire, stored as ISO-8601 UTC. Date-only values mean midnight UTC. */
export const IsoDate = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { message: 'must be an ISO date' })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00.000Z` : v).toISOString())
  // The date pickers start at 1900 (spec 01 section 5); past year 9999 the ISO text grows a sign and a
  // sixth digit ('+010000-01-01'), which no longer sorts as the dates it holds.
  .refine((v) => /^(19|[2-9]\d)\d\d-/.test(v), 'must be between the years 1900 and 9999');

export const NullableIsoDate = IsoDate.nullable();

/** Money is integer cents (DESIGN.md section 4). */
// The bounds before the whole-cents rule: 1e300 or 2^53 + 1 is over the limit, which is what to say (an
// unsafe integer would otherwise read as 'must be whole cents').
export const Cents = z.number().min(0, 'must not be negative').max(1e13).int('must be whole cents');
/** An amount that may be a credit (a deductive change order): whole cents, either way. */
export const SignedCents = z.number().min(-1e13).max(1e13).int('must be whole cents');

/**
 * Characters no one types on purpose: C0 controls other than tab and line breaks, DEL, and the bidi
 * embeddings, overrides and isolates that make a title read differently from what it stores (a task named
 * "\u202Egnp.exe" shows as "exe.png"). NUL also cuts strings short in tools that read the database.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;
/**
 * Half of a UTF-16 surrogate pair without its other half: no character at all. JSON carries it, but it
 * cannot be stored as UTF-8, so SQLite would keep U+FFFD in its place: what is stored would differ from
 * what was sent, with no word to the sender.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text a person typed: no invisible controls, no broken characters. Every free-text field goes through it. */
export const visible = (schema: z.ZodString) =>
  schema
    .refine((v) => !INVISIBLE_CONTROLS.test(v), 'must not contain invisible control characters')
    .refine((v) => !LONE_SURROGATE.test(v), 'must not contain broken characters');

/** 'must be at most N characters': the server and the forms put the field's name in front. */
export const atMost = (max: number) => `must be at most ${max} characters`;

export const Text = (max = 2000) => visible(z.string().trim().max(max, atMost(max)));
/**
 * Text a form cannot be sent without. Each way to get it wrong has its own sentence: zod 4 gives a check
 * without a message of its own the type's message, so a 300-character title was answered "Title is
 * required".
 */
export const RequiredText = (label: string, max = 200) =>
  visible(
    z
      .string({
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? `${label} is required`
            : `${label} must be text`,
      })
      .trim()
      .min(1, `${label} is required`)
      .max(max, `${label} ${atMost(max)}`),
  );
export const OptionalText = (max = 5000) =>
  visible(z.string().trim().max(max, atMost(max)))
    .nullable()
    .optional();
