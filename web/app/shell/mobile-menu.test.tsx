// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { TEST_USER } from '../test-utils.tsx';
import { MobileMenu } from './mobile-menu.tsx';

afterEach(cleanup);

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <MobileMenu user={TEST_USER} />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

describe('the phone menu', () => {
  it("opens with focus on the current screen's link; Close menu is reached by Tab", async () => {
    const user = renderAt('/tasks');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const nav = within(screen.getByRole('navigation', { name: 'Mobile' }));
    expect(document.activeElement).toBe(nav.getByRole('link', { name: 'Tasks' }));
    const close = screen.getByRole('button', { name: 'Close menu' });
    for (let i = 0; i < 20 && document.activeElement !== close; i++) await user.tab();
    expect(document.activeElement).toBe(close);
  });

  it('opens with focus on the first link on a screen the menu does not list', async () => {
    const user = renderAt('/no-such-screen');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const nav = within(screen.getByRole('navigation', { name: 'Mobile' }));
    expect(document.activeElement).toBe(nav.getAllByRole('link')[0]);
  });

  it('Escape closes it and gives focus back to the menu button', async () => {
    const user = renderAt('/tasks');
    const opener = screen.getByRole('button', { name: 'Open menu' });
    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
