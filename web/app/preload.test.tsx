// @vitest-environment jsdom
import { expect, it, vi } from 'vitest';
import { preloadFirstScreen } from './routes.tsx';

const asked = vi.hoisted(() => [] as string[]);
vi.mock('./signed-in-layout.tsx', () => {
  asked.push('signed-in layout');
  return { default: () => null };
});

it('asks for the signed-in code at once only when the device holds it (a page the service worker runs)', async () => {
  // A first visit of a known user: the code comes over the network, after the frame has painted.
  preloadFirstScreen('/dashboard', { knownUser: true, codeOnDevice: false });
  await new Promise((r) => setTimeout(r, 50));
  expect(asked).toEqual([]);

  preloadFirstScreen('/dashboard', { knownUser: true, codeOnDevice: true });
  await vi.waitFor(() => expect(asked).toEqual(['signed-in layout']));
});
