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

/** 'riskTitle' -> 'Risk title', 'first_name' -> 'First name'. */
function label(path: PropertyKey[]): string {
  const last = String(path[path.length - 1] ?? '');
  if (!last) return 'Body';
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** zod's stock wording ('Invalid input: expected string, received undefined') as opposed to a schema's own. */
const isStockMessage = (message: string) => /^(Invalid|Too (small|big)|Unrecognized)/.test(message);

/** Turns a zod failure into a 400 whose message names the first problem ('Email is required'). */
export function validationError(error: z.ZodError): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const name = issue.path.map(String).join('.') || '_';
    let message: string;
    if (issue.code === 'unrecognized_keys') message = `Unknown field(s): ${issue.keys.join(', ')}`;
    else if (isStockMessage(issue.message)) {
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      message = missing ? `${label(issue.path)} is required` : `${label(issue.path)}: ${issue.message}`;
    } else if (/^[a-z]/.test(issue.message)) message = `${label(issue.path)} ${issue.message}`;
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

export function isJsonType(contentType: string): boolean {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'application/json' || (base.startsWith('application/') && base.endsWith('+json'));
}

/** Reads a JSON body without validating it (the mutator validates with the shared schema). */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!isJsonType(type))
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  try {
    return await c.req.json();
  } catch {
    throw badRequest('Body is not valid JSON');
  }
}
