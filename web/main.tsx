import './lib/zod-jitless.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { FIRST_SCREEN_WAIT_MS, PREPAINTED_WAIT_MS, renderWhenFirstScreenReady } from './app/first-render.ts';
import { precacheGate } from './app/precache-gate.ts';
import { registerServiceWorker } from './app/pwa.ts';
import { preloadFirstScreen } from './app/routes.tsx';
import { prefetchCurrentUser, USER_QUERY } from './app/session.tsx';
import { afterFirstContentfulPaint } from './lib/after-paint.ts';
import { createQueryClient } from './lib/api.ts';
import { hasRememberedUser } from './lib/session-user.ts';
import './styles.css';

const queryClient = createQueryClient();
prefetchCurrentUser(queryClient);
const firstScreen = preloadFirstScreen(window.location.pathname, {
  knownUser: hasRememberedUser(),
  // A page the service worker controls has the app's code in its cache: asking for it costs no bandwidth.
  codeOnDevice: navigator.serviceWorker?.controller != null,
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
const render = () => {
  const reactRoot = createRoot(root);
  // A transition: React renders the app's first tree in slices of about 5 ms and handles input between
  // them, not in one task of 15-25 ms on a phone-class core (ADR 025). What the page already shows (the
  // prepainted sign-in card, ADR 029) stays on screen until the tree commits.
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
};
// A page the server sent with its screen inside (ADR 029) already shows it: rendered before its chunk is
// in, the app would replace it with the loading fallback, then bring it back.
const prepainted = root.firstElementChild !== null;
renderWhenFirstScreenReady(firstScreen, render, prepainted ? PREPAINTED_WAIT_MS : FIRST_SCREEN_WAIT_MS);
// Not needed for the first paint (its script is fetched on registration), so it comes after it; and on a
// signed-in page after the first sync cycle too, whose download the worker's install would compete with.
afterFirstContentfulPaint(() => {
  const signedIn = queryClient.ensureQueryData(USER_QUERY).then((user) => user !== null);
  void precacheGate.whenMayStart(signedIn).then(registerServiceWorker);
});
