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

/**
 * Screens the build renders to HTML (vite.config.ts) for the server to put inside a visitor's page, so the
 * screen paints with the page, before the app's code has arrived (ADR 029). Per address: the module whose
 * `prepaint()` returns the screen's markup, and the file under dist/ the build writes it to. Only screens
 * that show the same thing to every visitor: never one with a user's data.
 */
export const PREPAINTED_SCREENS: Readonly<Record<string, { source: string; file: string }>> = {
  '/login': { source: 'web/features/auth/sign-in-prepaint.tsx', file: 'prepaint/sign-in.html' },
};
