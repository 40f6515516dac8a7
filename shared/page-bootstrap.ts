/**
 * The signed-in user written into the page by the server for a navigation that carries a session
 * (api/serve.ts), read by the app before its first render (web/app/session.tsx): on a first visit the
 * first screen needs no round trip to GET /api/auth/user before it can paint (budget B10). A data block
 * (`type="application/json"`) is never executed, so the CSP needs no exception for it.
 */
export const SESSION_USER_ELEMENT_ID = 'session-user';

/** The `<script>` data block for `payload`, safe inside HTML: no `<` can close it or open a comment. */
export function sessionUserBlock(payload: unknown): string {
  const json = JSON.stringify(payload).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${SESSION_USER_ELEMENT_ID}">${json}</script>`;
}
