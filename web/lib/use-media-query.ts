import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches, following it as the window resizes; false where `matchMedia` is
 * missing (tests in jsdom, server). For layouts whose JS must agree with a Tailwind breakpoint.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}
