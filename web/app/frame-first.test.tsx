// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { AppRoutes } from './routes.tsx';
import { json, renderInApp, stubApi, stubPaintTimeline, TEST_USER } from './test-utils.tsx';

const asked = vi.hoisted(() => [] as string[]);
vi.mock('./signed-in-layout.tsx', async (original) => {
  asked.push('signed-in layout');
  return original();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function frames(n: number) {
  for (let i = 0; i < n; i++) {
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
}

// Budget B10: on a first visit the signed-in code (device database, sync engine, screens) is asked for
// only once the app's frame has painted, so it never shares a slow link with what that paint needs.
it('a first visit paints the frame with the greeting, and only then asks for the signed-in shell', async () => {
  const paint = stubPaintTimeline();
  stubApi({ 'GET /api/auth/user': () => json(TEST_USER), 'GET /api/notifications': () => json([]) });
  renderInApp(<AppRoutes />, { path: '/dashboard' });

  expect(await screen.findByText(/Welcome back, Casey/)).toBeTruthy();
  await frames(3);
  expect(asked).toEqual([]);

  paint('first-contentful-paint');
  expect(await screen.findByRole('button', { name: /^Notifications/ }, { timeout: 8_000 })).toBeTruthy();
  expect(asked).toEqual(['signed-in layout']);
});
