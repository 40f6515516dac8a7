// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasRememberedUser, LAST_USER_KEY, rememberedUser } from './session-user.ts';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const remember = (user: Record<string, unknown>) => localStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
const USER = { id: 'u1', companyId: 'c1', permissions: { dashboard: true }, email: 'crew@summit.test' };

describe('the remembered user at the page start', () => {
  it('tells whether a user is remembered without building a date formatter (the locale data loads after the first paint)', () => {
    const formatter = vi.spyOn(Intl, 'DateTimeFormat');
    expect(hasRememberedUser()).toBe(false);
    remember({ ...USER, companyTimeZone: 'America/Chicago' });
    expect(hasRememberedUser()).toBe(true);
    expect(formatter).not.toHaveBeenCalled();
  });

  it('remembers nobody for a stored copy without an id, a company or permissions, or one that is not JSON', () => {
    for (const broken of [
      { ...USER, id: 7 },
      { ...USER, companyId: undefined },
      { ...USER, permissions: null },
    ]) {
      remember(broken);
      expect(hasRememberedUser()).toBe(false);
      expect(rememberedUser()).toBeNull();
    }
    localStorage.setItem(LAST_USER_KEY, '{not json');
    expect(hasRememberedUser()).toBe(false);
    expect(rememberedUser()).toBeNull();
  });

  it('the user itself still comes with a checked zone: an unknown one reads as UTC', () => {
    remember({ ...USER, companyTimeZone: 'Mars/Olympus_Mons' });
    expect(rememberedUser()?.companyTimeZone).toBe('UTC');
    remember({ ...USER, companyTimeZone: 'Pacific/Auckland' });
    expect(rememberedUser()?.companyTimeZone).toBe('Pacific/Auckland');
  });
});
