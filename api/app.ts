import { Hono } from 'hono';
import type { Context } from 'hono';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import type { AppDeps, AppEnv } from './context.ts';
import { HttpError, bodyTooLarge, isJsonType, jsonBodyLimit } from './http.ts';
import { loadSessionUser } from './auth/session.ts';
import { findRouteRule, isAllowed } from './route-permissions.ts';
import { authRoutes } from './routes/auth.ts';
import { apiRoutes } from './routes/index.ts';

/**
 * DESIGN.md section 5. Scripts only from our own files. Styles allow 'unsafe-inline' because Radix's
 * scroll locking and scroll areas insert <style> elements at run time (docs/decisions/002-csp-inline-styles.md).
 * With photos in S3 (ADR 024) images come from the store's presigned addresses and presigned uploads go
 * to it, so its origin, and only then, is allowed for images and connections.
 */
export function contentSecurityPolicy(storeOrigin: string | null): string {
  const store = storeOrigin ? ` ${storeOrigin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' blob: data:${store}`,
    `connect-src 'self'${store}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Routes that take bytes or forms instead of JSON; every other write must be JSON (CSRF defence). */
const NON_JSON_BODIES: { method: string; pattern: RegExp; types: RegExp }[] = [
  { method: 'POST', pattern: /^\/api\/photos\/?$/, types: /^multipart\/form-data$/ },
  {
    method: 'PUT',
    pattern: /^\/api\/objects\/upload\/[^/]+$/,
    types: /^(image\/[\w.+-]+|application\/octet-stream)$/,
  },
  {
    method: 'PUT',
    pattern: /^\/api\/sync\/blobs\/[^/]+$/,
    types: /^(image\/[\w.+-]+|application\/octet-stream)$/,
  },
];

function isClientAbort(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || err.message === 'aborted';
}

function hasBody(c: Context): boolean {
  const length = c.req.header('content-length');
  return (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
}

function errorResponse(c: Context, err: HttpError) {
  for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
  const body: { message: string; code: string; fields?: Record<string, string> } = {
    message: err.message,
    code: err.code,
  };
  if (err.fields) body.fields = err.fields;
  return c.json(body, err.status);
}

/** Builds the whole application (no listen): API, security middleware and, optionally, the static PWA. */
export function createApp(deps: AppDeps, options: { staticApp?: Hono<AppEnv> } = {}) {
  const app = new Hono<AppEnv>({ strict: false });
  const policy = contentSecurityPolicy(deps.store.origin);

  app.onError((err, c) => {
    if (err instanceof HttpError) return errorResponse(c, err);
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 400 ? 'BAD_REQUEST' : 'HTTP_ERROR';
      return errorResponse(c, new HttpError(status as 400, code, err.message || 'Request failed'));
    }
    // A client that hung up mid-body is not a server fault: no stack in the log for anyone to flood it with.
    if (isClientAbort(err)) return errorResponse(c, new HttpError(400, 'ABORTED', 'The request was aborted'));
    console.error(err);
    return errorResponse(c, new HttpError(500, 'INTERNAL', 'Something went wrong on the server'));
  });

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('user', null);
    await next();
    // A handler may set a stricter policy of its own (image bytes are served with 'sandbox').
    if (!c.res.headers.has('Content-Security-Policy')) c.header('Content-Security-Policy', policy);
    c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    // API answers are never cached, except immutable photo bytes, which say so themselves.
    if (c.req.path.startsWith('/api') && !/immutable/.test(c.res.headers.get('Cache-Control') ?? '')) {
      c.header('Cache-Control', 'no-store');
    }
  });

  app.use('/api/*', async (c, next) => {
    const method = c.req.method;
    if (UNSAFE.has(method)) {
      // Hono's csrf() ignores JSON requests, so the Origin is checked here for every unsafe method. Only
      // PUBLIC_ORIGIN counts: an origin built from the request's Host header is whatever the sender says.
      const origin = c.req.header('origin');
      if (origin ? origin !== deps.env.PUBLIC_ORIGIN : c.req.header('sec-fetch-site') === 'cross-site') {
        throw new HttpError(403, 'BAD_ORIGIN', 'Cross-origin request refused');
      }
      if (hasBody(c)) {
        const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        const special = NON_JSON_BODIES.find((r) => r.method === method && r.pattern.test(c.req.path));
        if (!isJsonType(type) && !special?.types.test(type)) {
          throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
        }
        // A JSON body announced too large is refused before anything else is done for it; one without a
        // length is counted while it is read (readJson).
        const limit = jsonBodyLimit(c.req.path);
        if (!special && Number(c.req.header('content-length') ?? 0) > limit) throw bodyTooLarge(limit);
      }
    }
    const entry = findRouteRule(method, c.req.path);
    if (!entry) throw new HttpError(404, 'NOT_FOUND', 'No such API route');
    const user = await loadSessionUser(c, deps);
    c.set('user', user);
    if (entry.rule !== 'public') {
      if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Not signed in');
      if (user.mustChangePassword && !entry.key.startsWith(`${method} /api/auth/`)) {
        throw new HttpError(403, 'PASSWORD_CHANGE_REQUIRED', 'Set a new password before continuing');
      }
      if (!isAllowed(entry.rule, user.permissions))
        throw new HttpError(403, 'FORBIDDEN', 'You do not have permission to do that');
    }
    await next();
  });

  // Reads are gzipped for a client that accepts it: a first download's page of the demo data is 160 KiB of
  // JSON and about 25 KiB gzipped, seconds on a phone's slow link (budget B10). Writes answer small bodies,
  // and the event stream's content type is never compressed (it would hold pokes back until a buffer fills).
  // A body under 1 KiB is left as it is only when the answer states its length (`jsonWithLength`, which the
  // pull uses: most pulls are tiny); measuring every read here cost large pages more than it saved (ADR 021).
  const compressReads = compress();
  app.use('/api/*', (c, next) => (c.req.method === 'GET' ? compressReads(c, next) : next()));

  app.route('/api/auth', authRoutes);
  app.route('/api', apiRoutes);
  app.all('/api/*', () => {
    throw new HttpError(404, 'NOT_FOUND', 'No such API route');
  });
  if (options.staticApp) app.route('/', options.staticApp);
  return app;
}
