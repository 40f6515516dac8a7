// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { json, renderInApp, stubApi } from '#web/app/test-utils.tsx';
import SignInPage from './sign-in-page.tsx';
import { prepaint } from './sign-in-prepaint.tsx';

afterEach(cleanup);

/** Elements, attributes (in any order) and texts; what a browser paints from. */
type Shape = string | { tag: string; attributes: string[]; children: Shape[] };
function shape(node: Node): Shape {
  if (!(node instanceof Element)) return node.textContent ?? '';
  return {
    tag: node.localName,
    attributes: [...node.attributes].map((a) => `${a.name}=${a.value}`).sort(),
    children: [...node.childNodes].map(shape),
  };
}

/** The page's root with the prepainted card in it, as the server sends a visitor's /login (ADR 029). */
function prepaintedPage(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = prepaint();
  document.body.append(root);
  return root;
}

describe('the sign-in card the server paints before the app has loaded (ADR 029)', () => {
  it('is the markup the app renders for sign-in, with the form inert', async () => {
    stubApi({ 'GET /api/auth/user': () => json({}, 401) });
    const { container } = renderInApp(<SignInPage />, { path: '/login' });
    const live = (await screen.findByRole('heading', { name: 'Sign in to SiteCommand' })).closest('main')!;
    const prepainted = prepaintedPage().querySelector('main')!;
    const form = prepainted.querySelector('form')!;
    expect(form.hasAttribute('inert')).toBe(true);
    form.removeAttribute('inert');
    expect(shape(prepainted)).toEqual(shape(live));
    expect(container.querySelector('form')!.hasAttribute('inert')).toBe(false);
  });

  it('carries no value, no error and nothing a user typed or a server knows', () => {
    const root = prepaintedPage();
    for (const input of root.querySelectorAll('input')) expect(input.value).toBe('');
    expect(root.querySelector('[aria-invalid]')).toBeNull();
    expect(root.textContent).toBe(
      'Sign in to SiteCommandUse the email and password your company gave you.EmailPasswordSign InBack to Landing',
    );
    root.remove();
  });
});
