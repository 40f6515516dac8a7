import { lazy, Suspense, useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '#web/lib/api.ts';
import { AppRoutes } from './routes.tsx';
import { SessionProvider } from './session.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

// Not part of the first script: a toast raised before it loads waits in the toast store (use-toast.ts).
const Toaster = lazy(() => import('#web/components/ui/toast.tsx').then((m) => ({ default: m.Toaster })));

/** Providers (query client, router, session, toasts) around the route table; tooltips live in the signed-in layout. */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <SessionProvider>
          <AppRoutes />
          <UpdatePrompt />
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
