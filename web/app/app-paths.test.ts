import { describe, expect, it } from 'vitest';
import { isAppPath, loginPathFor, returnPathFrom } from './app-paths.ts';

describe('the sign-in return path', () => {
  it('comes back to the screen, its query and its hash', () => {
    const login = loginPathFor({ pathname: '/projects', search: '?view=list', hash: '#a' });
    expect(login.startsWith('/login?')).toBe(true);
    expect(returnPathFrom(login.slice('/login'.length))).toBe('/projects?view=list#a');
  });

  it('never leads off the app: other sites, protocol-relative and backslash tricks give null', () => {
    for (const next of [
      'https://evil.example/projects',
      '//evil.example/projects',
      '/\\evil.example/projects',
      'javascript:alert(1)',
      'projects',
      '',
    ]) {
      expect(returnPathFrom(`?next=${encodeURIComponent(next)}`), next).toBeNull();
    }
  });

  it('only returns to screens the app serves when signed in', () => {
    expect(returnPathFrom('?next=%2Fno-such-screen')).toBeNull();
    expect(returnPathFrom('?next=%2Flogin')).toBeNull();
    expect(returnPathFrom('?next=%2Ftasks')).toBe('/tasks');
    expect(isAppPath('/rbac-admin/')).toBe(true);
    expect(isAppPath('/')).toBe(false);
  });
});
