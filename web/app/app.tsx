import { useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { Toaster } from '#web/components/ui/toast.tsx';
import { createQueryClient } from '#web/lib/api.ts';
import { AppRoutes } from './routes.tsx';
import { SessionProvider } from './session.tsx';
import { UpdatePrompt } from './update-prompt.tsx';

/** Providers (query client, router, session, toasts) around the route table; tooltips live in the signed-in layout. */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <SessionProvider>
          <AppRoutes />
          <UpdatePrompt />
          <Toaster />
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
