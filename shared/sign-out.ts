/**
 * A cookie the app sets as it signs out, before asking the server to end the session: the server's answer
 * to the sign-out deletes it. When that request cannot reach the server (no signal), the session stays valid
 * on the server and its cookie (HttpOnly) stays in the browser, so reloading with signal would open the
 * account again, for whoever holds the phone next. With this cookie, the next request of any kind (the page,
 * an API call, the service worker's background sync) ends that session instead of using it (api/auth/session.ts).
 */
export const SIGNED_OUT_COOKIE = 'sc_signed_out';
