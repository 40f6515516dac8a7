/**
 * What the sign-in page tells a user whose session ended on its own (it expired, or was ended elsewhere)
 * rather than by Sign Out: that they were signed out, and how much of their work waits on this device to be
 * sent once they sign in again (DESIGN.md section 7: a 401 pauses the queue until sign-in). Without it a
 * crew member coming back online after days found a bare sign-in form and no word of their changes.
 */
const KEY = 'sc_session_ended';

export interface SessionEnded {
  email: string;
  /** Changes and photos waiting on the device when the session ended. */
  waiting: number;
}

let waiting = 0;
let signingOut = false;

/** The device's queue, as the sync engine last reported it (changes plus photos waiting). */
export function noteWaiting(count: number): void {
  waiting = count;
}

/** Sign Out was pressed: the session's end is the user's own, and nothing is said about it. */
export function noteSigningOut(value: boolean): void {
  signingOut = value;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** The server answered 401 to the remembered user `email`: remember it for the sign-in page of this tab. */
export function recordSessionEnded(email: string): void {
  if (signingOut) return;
  try {
    storage()?.setItem(KEY, JSON.stringify({ email, waiting } satisfies SessionEnded));
  } catch {
    // Storage full or refused: the sign-in page says nothing more, as before.
  }
}

export function readSessionEnded(): SessionEnded | null {
  try {
    const raw = storage()?.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<SessionEnded>) : null;
    return parsed && typeof parsed.email === 'string'
      ? { email: parsed.email, waiting: Number(parsed.waiting) || 0 }
      : null;
  } catch {
    return null;
  }
}

export function clearSessionEnded(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // ignore
  }
}
