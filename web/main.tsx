import './lib/zod-jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './app/pwa.ts';
import { preloadFirstScreen } from './app/routes.tsx';
import { prefetchCurrentUser } from './app/session.tsx';
import { createQueryClient } from './lib/api.ts';
import { rememberedUser } from './lib/session-user.ts';
import './styles.css';

const queryClient = createQueryClient();
prefetchCurrentUser(queryClient);
preloadFirstScreen(window.location.pathname, {
  knownUser: rememberedUser() !== null,
  // A page the service worker controls has the app's code in its cache: asking for it costs no bandwidth.
  codeOnDevice: navigator.serviceWorker?.controller != null,
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
registerServiceWorker();
