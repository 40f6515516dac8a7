// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScreenErrorBoundary } from './screen-error-boundary.tsx';

const CHUNK = new TypeError(
  'Failed to fetch dynamically imported module: http://localhost:3000/assets/logs-page-B1x2.js',
);

function Throws({ error }: { error: unknown }): never {
  throw error;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a screen that cannot be shown says why, and the rest of the app stays', () => {
  it('offline, a screen whose code is not on the device says so, and Reload reloads', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const reload = vi.fn();
    render(
      <>
        <nav>Shell navigation</nav>
        <ScreenErrorBoundary resetKey="/logs" reload={reload}>
          <Throws error={CHUNK} />
        </ScreenErrorBoundary>
      </>,
    );
    const alert = screen.getByRole('alert');
    expect(screen.getByRole('heading', { name: 'This screen could not be loaded' })).toBeTruthy();
    expect(alert.textContent).toContain(
      'You are offline, and this part of the app is not on this device yet',
    );
    expect(screen.getByText('Shell navigation')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('online, the same failure asks to check the connection; any other error is "Something went wrong"', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { unmount } = render(
      <ScreenErrorBoundary resetKey="/logs">
        <Throws error={CHUNK} />
      </ScreenErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Part of the app could not be downloaded');
    unmount();
    render(
      <ScreenErrorBoundary resetKey="/tasks">
        <Throws error={new Error('Cannot read properties of undefined')} />
      </ScreenErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
  });

  it('going to another address shows that screen again', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(
      <ScreenErrorBoundary resetKey="/logs">
        <Throws error={CHUNK} />
      </ScreenErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    rerender(
      <ScreenErrorBoundary resetKey="/dashboard">
        <p>Dashboard</p>
      </ScreenErrorBoundary>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Dashboard')).toBeTruthy();
  });
});
