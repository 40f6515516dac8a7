// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { PLATFORM_COMPANY_ID } from '#shared/ids.ts';
import type { AdminCompany, AdminPermission, AdminRole, AdminUser } from '#shared/schemas/rbac.ts';
import { json, stubApi, TEST_USER } from '#web/app/test-utils.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import { createQueryClient } from '#web/lib/api.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import { RbacScreen } from './rbac-screen.tsx';

const SUMMIT = '0195a0a0-0000-7000-8000-0000000000c0';
const HARBOR = '0195a0a0-0000-7000-8000-0000000000c1';
const EMPTY_CO = '0195a0a0-0000-7000-8000-0000000000c2';

const ADMIN: CurrentUser = {
  ...TEST_USER,
  id: 'admin-1',
  email: 'admin@summit.test',
  role: 'admin',
  roleId: 1,
  companyId: SUMMIT,
  permissions: { ...TEST_USER.permissions, rbacAdmin: true },
  grants: ['rbac:manage', 'rbac:view'],
};
const ROOT: CurrentUser = {
  ...ADMIN,
  id: 'root-1',
  email: 'root@sitecommand.test',
  role: 'root',
  roleId: 5,
  companyId: PLATFORM_COMPANY_ID,
  grants: ['platform:admin', 'rbac:manage', 'rbac:view'],
};

const user = (id: string, name: string, company: [string, string], active = true): AdminUser => {
  const [first, last] = name.split(' ');
  return {
    id,
    name,
    username: `${id}@x.test`,
    email: `${id}@x.test`,
    first_name: first ?? null,
    last_name: last ?? null,
    company_id: company[0],
    company_name: company[1],
    role_id: 3,
    role_name: 'Crew Member',
    role: 'crew',
    is_active: active,
  };
};
const USERS: AdminUser[] = [
  user('u1', 'Zoe Zimmer', [SUMMIT, 'Summit Builders']),
  user('u2', 'Hal Harbor', [HARBOR, 'Harbor Construction'], false),
  user('u3', 'Amy Adams', [SUMMIT, 'Summit Builders']),
];
const PERMISSIONS: AdminPermission[] = Array.from({ length: 8 }, (_, i) => ({
  id: i + 1,
  name: `perm:${i + 1}`,
  description: `Permission ${i + 1}`,
  category: i < 4 ? 'Navigation' : 'Tasks',
  resource_type: 'thing',
  action: `a${i + 1}`,
}));
const ROLES: AdminRole[] = [
  {
    id: 3,
    name: 'Crew Member',
    description: 'Field work',
    company_id: null,
    is_template: true,
    permissions: [1, 2, 3, 4, 5, 6, 7, 8],
    kind: 'crew',
  },
  {
    id: 9,
    name: 'Viewer',
    description: null,
    company_id: SUMMIT,
    is_template: false,
    permissions: [1, 2],
    kind: 'crew',
  },
];
const company = (id: string, name: string, count: number): AdminCompany => ({
  id,
  name,
  domain: null,
  status: 'active',
  settings: { type: 'customer', subscription_tier: 'basic' },
  time_zone: 'UTC',
  created_at: '2026-01-05T10:00:00.000Z',
  is_active: true,
  user_count: count,
});
const COMPANIES = [
  company(SUMMIT, 'Summit Builders', 2),
  company(HARBOR, 'Harbor Construction', 1),
  company(EMPTY_CO, 'Empty Co', 0),
];

function lists(overrides: Record<string, Parameters<typeof stubApi>[0][string]> = {}) {
  return stubApi({
    'GET /api/rbac/users': () => json(USERS),
    'GET /api/rbac/roles': () => json(ROLES),
    'GET /api/rbac/permissions': () => json(PERMISSIONS),
    'GET /api/companies': () => json(COMPANIES),
    ...overrides,
  });
}

function renderScreen(who: CurrentUser, client: QueryClient = createQueryClient()) {
  render(
    <QueryClientProvider client={client}>
      <RbacScreen user={who} />
      <Toaster />
    </QueryClientProvider>,
  );
  return client;
}

const calls = (fetchMock: ReturnType<typeof stubApi>, method: string) =>
  fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);

beforeAll(() => {
  const proto = Element.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.setPointerCapture ??= () => {};
  proto.releasePointerCapture ??= () => {};
  proto.scrollIntoView ??= () => {};
  (globalThis as unknown as Record<string, unknown>).ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
beforeEach(() => resetToasts());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Users tab', () => {
  it('groups users by company, with a count per section, and a section collapses', async () => {
    lists();
    renderScreen(ROOT);
    const summit = await screen.findByRole('button', { name: /Summit Builders/ });
    expect(summit.textContent).toContain('2 users');
    expect(screen.getByRole('button', { name: /Harbor Construction/ }).textContent).toContain('1 user');
    const rows = within(screen.getByRole('list', { name: 'Users of Summit Builders' })).getAllByRole(
      'listitem',
    );
    expect(rows.map((r) => within(r).getByText(/ /, { selector: 'p.font-medium' }).textContent)).toEqual([
      'Amy Adams',
      'Zoe Zimmer',
    ]);
    const harbor = screen.getByRole('list', { name: 'Users of Harbor Construction' });
    expect(within(harbor).getByText('Inactive')).toBeTruthy();
    expect(
      (within(harbor).getByRole('button', { name: 'Activate Hal Harbor' }) as HTMLButtonElement).disabled,
    ).toBe(false);

    await userEvent.click(summit);
    expect(screen.queryByText('Amy Adams')).toBeNull();
    expect(screen.getByText('Hal Harbor')).toBeTruthy();
  });

  it('the signed-in admin’s own row says, in words a phone shows, why Deactivate and Delete are off', async () => {
    lists({
      'GET /api/rbac/users': () =>
        json([...USERS, user('admin-1', 'Ada Admin', [SUMMIT, 'Summit Builders'])]),
    });
    renderScreen(ADMIN);
    const own = await screen.findByRole('button', { name: 'Deactivate Ada Admin' });
    expect((own as HTMLButtonElement).disabled).toBe(true);
    const reason = screen.getByText('This is you: you cannot deactivate or delete your own account.');
    expect(own.getAttribute('aria-describedby')).toBe(reason.id);
    expect(screen.getByRole('button', { name: 'Delete Ada Admin' }).getAttribute('aria-describedby')).toBe(
      reason.id,
    );
    expect(screen.getAllByText(/This is you/)).toHaveLength(1);
  });

  it('a company admin gets only the Users tab; the platform root all four', async () => {
    lists();
    renderScreen(ADMIN);
    await screen.findByRole('button', { name: /Summit Builders/ });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Users']);
    cleanup();
    renderScreen(ROOT);
    await screen.findByRole('button', { name: /Summit Builders/ });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Users',
      'Roles',
      'Companies',
      'Permissions',
    ]);
  });

  it('Add User names every missing field in one message and sends nothing', async () => {
    const api = lists();
    renderScreen(ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = screen.getByRole('dialog', { name: 'Add User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(
      await within(dialog).findByText('Please fill in: Email, First Name, Last Name, Role'),
    ).toBeTruthy();
    // Each missing field is marked too, and focus goes to the first.
    const email = within(dialog).getByLabelText(/^Email/);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(
      within(dialog)
        .getByLabelText(/^Last Name/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(calls(api, 'POST')).toHaveLength(0);
  });

  it('a new user’s one-time password is shown once, with a copy button and the first sign-in note', async () => {
    const api = lists({
      'POST /api/rbac/users': () =>
        json(
          { ...USERS[0], id: 'u9', email: 'new@summit.test', one_time_password: 'Xy7-one-time-123456' },
          201,
        ),
    });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderScreen(ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = screen.getByRole('dialog', { name: 'Add User' });
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'new@summit.test');
    await userEvent.type(within(dialog).getByLabelText(/First Name/), 'Nia');
    await userEvent.type(within(dialog).getByLabelText(/Last Name/), 'Okafor');
    await userEvent.click(within(dialog).getByLabelText(/Role/));
    await userEvent.click(await screen.findByRole('option', { name: 'Viewer (Standard)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));

    const shown = await screen.findByRole('dialog', { name: 'One-time password' });
    expect(within(shown).getByLabelText('One-time password').textContent).toContain('Xy7-one-time-123456');
    expect(shown.textContent).toContain('It must be changed at first sign-in.');
    await userEvent.click(within(shown).getByRole('button', { name: 'Copy password' }));
    expect(writeText).toHaveBeenCalledWith('Xy7-one-time-123456');
    expect(JSON.parse(String(calls(api, 'POST')[0]?.[1]?.body))).toEqual({
      email: 'new@summit.test',
      first_name: 'Nia',
      last_name: 'Okafor',
      company_id: SUMMIT,
      role_id: 9,
    });
    await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('Xy7-one-time-123456')).toBeNull();
  });

  it('Edit User sends only the changed field', async () => {
    const api = lists({ 'PATCH /api/rbac/users/u3': () => json(USERS[2]) });
    renderScreen(ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Amy Adams' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    const first = within(dialog).getByLabelText(/First Name/);
    await userEvent.clear(first);
    await userEvent.type(first, 'Amelia');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update User' }));
    await waitFor(() => expect(calls(api, 'PATCH')).toHaveLength(1));
    expect(JSON.parse(String(calls(api, 'PATCH')[0]?.[1]?.body))).toEqual({ first_name: 'Amelia' });
  });

  it('delete asks first: Cancel sends nothing, Delete removes the user', async () => {
    const api = lists({ 'DELETE /api/rbac/users/u1': () => json({ id: 'u1' }) });
    renderScreen(ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Zoe Zimmer' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete user?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    expect(calls(api, 'DELETE')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Zoe Zimmer' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete user?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(calls(api, 'DELETE')).toHaveLength(1));
    expect(await screen.findByText('User deleted successfully')).toBeTruthy();
  });

  it('a write refused because another admin got there first shows why and the lists as they are now', async () => {
    // The list on screen is from before another admin deleted Zoe.
    let listed = USERS;
    lists({
      'GET /api/rbac/users': () => json(listed),
      'DELETE /api/rbac/users/u1': () => {
        listed = USERS.filter((u) => u.id !== 'u1');
        return json({ message: 'User not found', code: 'NOT_FOUND' }, 404);
      },
    });
    renderScreen(ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Zoe Zimmer' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete user?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Failed to delete user')).toBeTruthy();
    expect(screen.getByText('User not found')).toBeTruthy();
    // Not left offering Edit, Deactivate and Delete on someone who is gone.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Zoe Zimmer' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Delete Amy Adams' })).toBeTruthy();
  });
});

describe('Users tab: deactivation', () => {
  it('Deactivate asks first (it signs the user out): Cancel sends nothing, Deactivate sends is_active false', async () => {
    const api = lists({ 'PATCH /api/rbac/users/u1': () => json({ ...USERS[0], is_active: false }) });
    renderScreen(ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate Zoe Zimmer' }));
    const ask = () => screen.getByRole('alertdialog', { name: 'Deactivate user?' });
    expect(ask().textContent).toContain('will be signed out at once');
    await userEvent.click(within(ask()).getByRole('button', { name: 'Cancel' }));
    expect(calls(api, 'PATCH')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate Zoe Zimmer' }));
    await userEvent.click(within(ask()).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(calls(api, 'PATCH')).toHaveLength(1));
    expect(JSON.parse(String(calls(api, 'PATCH')[0]?.[1]?.body))).toEqual({ is_active: false });
  });
});

describe('Roles tab', () => {
  it('a card shows the template badge, the count, the first 5 names and +N more', async () => {
    lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Roles' }));
    const crew = screen.getByRole('list', { name: 'Permissions of Crew Member' });
    expect(
      within(crew)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['perm:1', 'perm:2', 'perm:3', 'perm:4', 'perm:5', '+3 more']);
    const crewCard = crew.closest('li')?.parentElement?.closest('li') ?? crew.parentElement!;
    expect(crewCard.textContent).toContain('Template');
    expect(crewCard.textContent).toContain('8 permissions');
    const viewer = screen.getByRole('list', { name: 'Permissions of Viewer' });
    expect(
      within(viewer)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['perm:1', 'perm:2']);
  });

  it('the card’s edit button edits that role and sends only the changed permissions', async () => {
    const api = lists({ 'PATCH /api/rbac/roles/9': () => json({ ...ROLES[1], permissions: [1, 2, 5] }) });
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Roles' }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit role Viewer' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Role' });
    expect((within(dialog).getByLabelText(/Role name/) as HTMLInputElement).value).toBe('Viewer');
    expect(within(dialog).getByRole('group', { name: 'Tasks' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /perm:5/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Role' }));
    await waitFor(() => expect(calls(api, 'PATCH')).toHaveLength(1));
    expect(JSON.parse(String(calls(api, 'PATCH')[0]?.[1]?.body))).toEqual({ permissions: [1, 2, 5] });
    expect(calls(api, 'POST')).toHaveLength(0);
  });

  it('Create Role offers platform:admin only to the Platform Administrator role', async () => {
    const platform: AdminPermission = {
      id: 42,
      name: 'platform:admin',
      description: 'Manage companies, roles and permissions',
      category: 'Administration',
      resource_type: 'platform',
      action: 'admin',
    };
    lists({ 'GET /api/rbac/permissions': () => json([...PERMISSIONS, platform]) });
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Roles' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Role' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Role' });
    const box = within(dialog).getByRole('checkbox', { name: /platform:admin/ }) as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(box.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toContain(
      'only the Platform Administrator role',
    );
    expect((within(dialog).getByRole('checkbox', { name: /perm:5/ }) as HTMLInputElement).disabled).toBe(
      false,
    );
  });

  it('the built-in roles have no Delete (the server refuses it); a custom role has', async () => {
    lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Roles' }));
    expect(screen.getByRole('button', { name: 'Edit role Crew Member' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete role Crew Member' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete role Viewer' })).toBeTruthy();
  });

  it('Create Role for all companies but not a template is refused under Company, which gets the focus', async () => {
    const api = lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Roles' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Role' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Role' });
    await userEvent.type(within(dialog).getByLabelText(/Role name/), 'Floating');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(
      await within(dialog).findByText(
        'A role for all companies is a template role: tick Template role, or choose a company',
      ),
    ).toBeTruthy();
    // On a phone the field is far above the button: focusing it brings it into view.
    expect(document.activeElement).toBe(within(dialog).getByRole('combobox', { name: 'Company' }));
    expect(calls(api, 'POST')).toHaveLength(0);
  });

  it('Create Role needs a name', async () => {
    const api = lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Roles' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Role' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Role' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await within(dialog).findByText('Role name is required')).toBeTruthy();
    expect(calls(api, 'POST')).toHaveLength(0);
  });
});

describe('Companies tab', () => {
  it('the switch shows only companies with users; a card has type, tier, status, created date and count', async () => {
    lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Companies' }));
    const cards = () =>
      within(screen.getByRole('list', { name: 'Companies' }))
        .getAllByRole('heading')
        .map((h) => h.textContent);
    expect(cards()).toEqual(['Summit Builders', 'Harbor Construction', 'Empty Co']);
    const summit = screen.getByRole('heading', { name: 'Summit Builders', level: 3 }).closest('li')!;
    for (const text of ['Customer', 'Basic', 'Active', '2 users', 'Created Jan 5, 2026']) {
      expect(summit.textContent).toContain(text);
    }
    await userEvent.click(screen.getByRole('switch', { name: 'Only show companies with users' }));
    expect(cards()).toEqual(['Summit Builders', 'Harbor Construction']);
  });

  it('delete warns with the spec’s text', async () => {
    lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Companies' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Harbor Construction' }));
    expect(screen.getByRole('alertdialog').textContent).toContain(
      'All projects, tasks, users, and associated data will be permanently removed.',
    );
  });

  it('Add Company: the name is required; the time zone starts as this browser’s', async () => {
    const api = lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Companies' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Company' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Company' });
    expect((within(dialog).getByLabelText('Time zone') as HTMLInputElement).value).toBe(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Company' }));
    expect(await within(dialog).findByText('Company name is required')).toBeTruthy();
    expect(calls(api, 'POST')).toHaveLength(0);
  });
});

describe('Permissions tab', () => {
  it('lists the catalogue by category, read-only', async () => {
    lists();
    renderScreen(ROOT);
    await userEvent.click(await screen.findByRole('tab', { name: 'Permissions' }));
    const tasks = screen.getByRole('region', { name: 'Tasks' });
    expect(within(tasks).getAllByRole('listitem')).toHaveLength(4);
    expect(within(tasks).getByText('Permission 5')).toBeTruthy();
    expect(within(screen.getByRole('tabpanel')).queryAllByRole('button')).toHaveLength(0);
  });
});

describe('offline', () => {
  it('shows the last loaded lists with an "as of" line and turns writes off', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    // No answer reaches the device: a refetch fails the way a browser's fetch does offline.
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const client = createQueryClient();
    const at = new Date(2026, 10, 23, 14, 30).getTime();
    client.setQueryData(['/api/rbac/users'], USERS, { updatedAt: at });
    client.setQueryData(['/api/rbac/roles'], ROLES, { updatedAt: at + 60_000 });
    client.setQueryData(['/api/companies'], COMPANIES, { updatedAt: at + 60_000 });
    renderScreen(ADMIN, client);
    expect(await screen.findByText('Offline: showing the lists as of Nov 23, 2:30 PM.')).toBeTruthy();
    expect(screen.getByText(/need the server: they are turned off until you are back online/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add User' }) as HTMLButtonElement).disabled).toBe(true);
    expect(
      (screen.getByRole('button', { name: 'Deactivate Zoe Zimmer' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete Zoe Zimmer' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.getByText('Zoe Zimmer')).toBeTruthy();
  });
});
