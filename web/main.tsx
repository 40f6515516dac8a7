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
// Read before prefetchCurrentUser, which remembers the user the page carries: "known" means from an
// earlier visit, whose code the device has cached.
const knownUser = rememberedUser() !== null;
prefetchCurrentUser(queryClient);
preloadFirstScreen(window.location.pathname, knownUser);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
registerServiceWorker();
