/**
 * The session written into the page by the server for a browser navigation (api/serve.ts): the signed-in
 * user, or null when the request carries no valid session. The app reads it before its first render
 * (web/app/session.tsx), so the first screen (the Dashboard, or sign-in) needs no round trip to
 * GET /api/auth/user before it can paint (budget B10). A data block (`type="application/json"`) is never
 * executed, so the CSP needs no exception for it.
 */
export const SESSION_USER_ELEMENT_ID = 'session-user';

/** The `<script>` data block for `payload`, safe inside HTML: no `<` can close it or open a comment. */
export function sessionUserBlock(payload: unknown): string {
  const json = JSON.stringify(payload).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${SESSION_USER_ELEMENT_ID}">${json}</script>`;
}
