// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { AppRoutes } from '../routes.tsx';
import { json, renderInApp, stubApi, TEST_USER } from '../test-utils.tsx';

// The signed-in code (device database, sync engine, shell) arrives when the test says, as on a slow phone.
const slow = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return { arrived, arrive: () => arrive() };
});
vi.mock('../signed-in-layout.tsx', async () => {
  await slow.arrived;
  return { default: () => <p>The signed-in app</p> };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the frame while the signed-in code loads', () => {
  // Before the test below lets the signed-in code arrive (the module is loaded once per file).
  it.each([
    ['/tasks', 'Task Management', 'Every task you can see, across projects'],
    ['/projects', 'Projects', 'Summit Builders'],
  ])('shows the heading of %s while its code loads', async (path, title, description) => {
    stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    renderInApp(<AppRoutes />, { path });

    const heading = await screen.findByRole('heading', { level: 1, name: title });
    // The same section the screen renders, labelled by the heading, with the description and the spinner.
    const section = heading.closest('section')!;
    expect(section.getAttribute('aria-labelledby')).toBe(heading.id);
    expect(section.textContent).toContain(description);
    expect(section.textContent).toContain('Loading...');
  });

  it("shows the company, the user and the Dashboard's greeting at once, then the app", async () => {
    stubApi({ 'GET /api/auth/user': () => json(TEST_USER) });
    renderInApp(<AppRoutes />, { path: '/dashboard' });

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByText('Welcome back, Casey · Summit Builders')).toBeTruthy();
    expect(screen.getByTestId('company-name').textContent).toBe('Summit Builders');
    expect(screen.getByTestId('user-first-name').textContent).toBe('Casey');
    expect(screen.getByText('CR')).toBeTruthy();
    expect(screen.getByRole('main').textContent).toContain('Loading...');
    // The menu the role may open, with no data needed for it.
    expect(screen.getByRole('link', { name: 'Tasks' }).getAttribute('href')).toBe('/tasks');
    expect(screen.queryByRole('link', { name: 'RBAC Admin' })).toBeNull();
    expect(screen.queryByText('Loading your dashboard...')).toBeNull();

    await act(async () => slow.arrive());
    expect(await screen.findByText('The signed-in app')).toBeTruthy();
    expect(screen.queryByText(/Welcome back/)).toBeNull();
  });
});
