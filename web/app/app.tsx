import { lazy, Suspense, useEffect, useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { afterFirstContentfulPaint } from '#web/lib/after-paint.ts';
import { createQueryClient } from '#web/lib/api.ts';
import { AppRoutes } from './routes.tsx';
import { SessionProvider } from './session.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

// Not part of the first script, and not asked for before the first paint (its Radix parts are five
// files): a toast raised before it loads waits in the toast store (use-toast.ts).
const Toaster = lazy(() => import('#web/components/ui/toast.tsx').then((m) => ({ default: m.Toaster })));

function ToasterAfterFirstPaint() {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterFirstContentfulPaint(() => setPainted(true)), []);
  return painted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/** Providers (query client, router, session, toasts) around the route table; tooltips live in the signed-in layout. */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <SessionProvider>
          <AppRoutes />
          <UpdatePrompt />
          <ToasterAfterFirstPaint />
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
