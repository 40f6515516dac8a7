// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPwaState, setUpdater } from './pwa-state.ts';
import { UpdatePrompt } from './update-prompt.tsx';

afterEach(() => {
  cleanup();
  act(() => setPwaState({ needRefresh: false }));
});

describe('UpdatePrompt', () => {
  it('stays hidden until a new version waits', () => {
    render(<UpdatePrompt />);
    expect(screen.queryByText('A new version is available')).toBeNull();
    act(() => setPwaState({ needRefresh: true }));
    expect(screen.getByRole('alertdialog', { name: 'A new version is available' })).toBeTruthy();
  });

  it('Reload activates the new worker; Later hides the prompt without reloading', async () => {
    const update = vi.fn(async () => {});
    setUpdater(update);
    render(<UpdatePrompt />);
    act(() => setPwaState({ needRefresh: true }));
    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(update).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    act(() => setPwaState({ needRefresh: true }));
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(update).toHaveBeenCalledWith(true);
  });
});
