import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

/** Every error answer is `{message, code, fields?}` (DESIGN.md section 5). */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new HttpError(400, 'BAD_REQUEST', message, fields);
export const notFound = (what = 'Resource') => new HttpError(404, 'NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You do not have permission to do that') =>
  new HttpError(403, 'FORBIDDEN', message);
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, code, message);
export const unauthorized = (message = 'Not signed in') => new HttpError(401, 'UNAUTHORIZED', message);

/** 'riskTitle' -> 'Risk title', 'first_name' -> 'First name'; ['images', 0] -> 'Images (item 1)'. */
function label(path: PropertyKey[]): string {
  const last = path[path.length - 1];
  if (typeof last === 'number') return `${label(path.slice(0, -1))} (item ${last + 1})`;
  if (last === undefined || String(last) === '') return 'Body';
  const words = String(last)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * zod's own text for a check the schema gave no message of its own ('Too big: expected string to have
 * <=200 characters'), said as a sentence about the field instead: what it must be.
 */
function stockRule(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${n} items`;
      return issue.inclusive === false ? `must be less than ${n}` : `must be at most ${n}`;
    }
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string') return n <= 1 ? 'is required' : `must be at least ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at least ${n} items`;
      return issue.inclusive === false ? `must be greater than ${n}` : `must be at least ${n}`;
    }
    case 'invalid_format':
      return issue.format === 'uuid' || issue.format === 'guid'
        ? 'must be a valid id'
        : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return 'is not valid';
  }
}

const isStockMessage = (message: string) => /^(Invalid|Too (small|big)|Unrecognized)/.test(message);

/** Turns a zod failure into a 400 whose message names the first problem ('Email is required'). */
export function validationError(error: z.ZodError): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const name = issue.path.map(String).join('.') || '_';
    let message: string;
    if (issue.code === 'unrecognized_keys') message = `Unknown field(s): ${issue.keys.join(', ')}`;
    else if (issue.code === 'invalid_type' && isStockMessage(issue.message)) {
      // zod names the received type only in its stock text ('... received undefined'); `input` is there
      // only when the parse asked for it, which the hot path does not.
      const missing =
        'input' in issue ? issue.input === undefined : / received undefined$/.test(issue.message);
      message = missing
        ? `${label(issue.path)} is required`
        : `${label(issue.path)} must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    } else if (isStockMessage(issue.message)) message = `${label(issue.path)} ${stockRule(issue)}`;
    else if (/^[a-z]/.test(issue.message)) message = `${label(issue.path)} ${issue.message}`;
    else message = issue.message; // the schema's own full sentence, e.g. 'Company name is required'
    fields[name] ??= message;
  }
  const first = Object.values(fields)[0] ?? 'Invalid input';
  return new HttpError(400, 'VALIDATION_FAILED', first, fields);
}

/** Parses a value with a shared zod schema synchronously (the compiled fast path), or throws a 400. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Reads a JSON body (415 when it is not JSON, 400 when it does not parse) and validates it. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJson(c));
}

/**
 * A JSON answer that states its length. compress() leaves a body under 1 KiB as it is only when it knows the
 * length, and `c.json` gives none: without it, even a pull of one change (what every device asks for after
 * each poke) went out gzipped, as a stream behind its headers.
 */
export function jsonWithLength(c: Context, value: unknown): Response {
  const text = JSON.stringify(value);
  return c.body(text, 200, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
  });
}

export function isJsonType(contentType: string): boolean {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'application/json' || (base.startsWith('application/') && base.endsWith('+json'));
}

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * The most bytes a JSON body may have (README "Limits"; push in sync/SPEC.md P1). Bodies are parsed whole,
 * so an unbounded one is an unbounded allocation: sign-in and the other auth forms are tiny, a push carries
 * up to 500 mutations, every other write is one record.
 */
export function jsonBodyLimit(path: string): number {
  if (path.startsWith('/api/auth/')) return 4 * KIB;
  if (/^\/api\/sync\/push\/?$/.test(path)) return 16 * MIB;
  return 1 * MIB;
}

const sizeLabel = (bytes: number) => (bytes >= MIB ? `${bytes / MIB} MiB` : `${bytes / KIB} KiB`);

export const bodyTooLarge = (limit: number) =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${sizeLabel(limit)}`);

/**
 * Reads a request body, refusing it when Content-Length announces more than `limit` and, because a client
 * may omit or lie about the length, cancelling the stream as soon as more than `limit` bytes have arrived:
 * at most `limit` plus one chunk is ever held in memory.
 */
export async function readCappedBytes(
  req: Request,
  limit: number,
  refuse: () => HttpError,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw refuse();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => {});
      throw refuse();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

const parsedBodies = new WeakMap<Request, unknown>();

/**
 * For a write that takes no body (mark read, recalculate): none, or `{}`. Anything else is refused, as an
 * unknown field is on every other route, instead of being ignored.
 */
export async function noBody(c: Context): Promise<void> {
  const bytes = await readCappedBytes(c.req.raw, KIB, () => bodyTooLarge(KIB));
  const text = new TextDecoder().decode(bytes).trim();
  if (text === '') return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('Body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length > 0) {
    throw badRequest('This request takes no body');
  }
}

/** Reads a JSON body without validating it (the mutator validates with the shared schema). */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!isJsonType(type))
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  if (parsedBodies.has(c.req.raw)) return parsedBodies.get(c.req.raw);
  const limit = jsonBodyLimit(c.req.path);
  const bytes = await readCappedBytes(c.req.raw, limit, () => bodyTooLarge(limit));
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw badRequest('Body is not valid JSON');
  }
  parsedBodies.set(c.req.raw, body);
  return body;
}
