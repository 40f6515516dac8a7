// The floor of budgets B10 and B11 (DESIGN.md section 11): the least a page built on the app's stack can
// ship. React + react-router-dom + @tanstack/react-query + dexie, each really used (nothing tree-shaken
// away), one route, a sign-in-like form, no CSS framework, no code splitting. Built by bench/web-lib.ts
// with the same vite and React plugin as the app, served by the app's own server under /__floor/.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Dexie, type Table } from 'dexie';

class FloorDb extends Dexie {
  items!: Table<{ id: string; name: string }, string>;
  constructor() {
    super('floor');
    this.version(1).stores({ items: 'id, name' });
  }
}
const db = new FloorDb();

function SignIn() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const saved = useQuery({ queryKey: ['items'], queryFn: () => db.items.count() });
  return (
    <main style={{ maxWidth: 420, margin: '10vh auto', padding: 16, fontFamily: 'system-ui, sans-serif' }}>
      <h1>Sign in to Floor</h1>
      <p>Use the email and password your company gave you.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          navigate('/');
        }}
        style={{ display: 'grid', gap: 12 }}
      >
        <label htmlFor="email">Email</label>
        <input id="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" />
        <button type="submit">Sign In</button>
      </form>
      <p>{saved.data === undefined ? '' : `${saved.data} saved items`}</p>
    </main>
  );
}

const client = new QueryClient();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <BrowserRouter basename="/__floor">
        <Routes>
          <Route path="*" element={<SignIn />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
