// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { toast } from '#web/components/ui/use-toast.ts';
import { App } from './app.tsx';
import { json, stubApi, stubPaintTimeline } from './test-utils.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

it('loads the toasts after the first paint; a toast raised before it shows then', async () => {
  const paint = stubPaintTimeline();
  stubApi({ 'GET /api/auth/user': () => json({ message: 'no' }, 401) });
  render(<App />);
  act(() => {
    toast({ title: 'Saved on this device' });
  });
  await new Promise((r) => setTimeout(r, 200));
  expect(screen.queryByText('Saved on this device')).toBeNull();

  paint('first-contentful-paint');
  expect(await screen.findByText('Saved on this device', {}, { timeout: 5_000 })).toBeTruthy();
});
