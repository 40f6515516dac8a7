import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Module = { default: ComponentType };

/** A chunk that can be asked for before its component first renders, and the component itself. */
/** A page-level component (no props): a route's screen, the signed-in layout. */
export interface Preloadable {
  /** Starts the download once (again after a failure); resolves with the module. */
  preload(): Promise<Module>;
  /** Whether the chunk has been asked for. */
  readonly requested: boolean;
  /**
   * The component, for React. `first` is how a render asks when nothing asked before (default: at once);
   * the signed-in layout waits for the app frame's first paint there.
   */
  lazy(first?: () => Promise<unknown>): LazyExoticComponent<ComponentType>;
}

/**
 * A lazily loaded component whose chunk may arrive before the component first renders. React.lazy calls
 * its loader at that render and suspends on the promise it gets back even when the chunk is long in (a
 * promise never reports its value synchronously): the fallback commits, and React 19 then keeps it on
 * screen for at least 300 ms (its Suspense reveal throttle). Measured on /login: the sign-in form came
 * ~300 ms after its chunk had arrived. Once the chunk is in, this loader gives React an already-resolved
 * thenable, which React.lazy reads synchronously, so the component renders on its first render.
 */
export function preloadable(load: () => Promise<Module>): Preloadable {
  let loaded: Module | undefined;
  let pending: Promise<Module> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  return {
    preload,
    get requested() {
      return pending !== undefined;
    },
    lazy(first = preload) {
      return lazy(() => {
        if (loaded) return resolvedThenable(loaded);
        return pending ?? first().then(preload);
      });
    },
  };
}

/** A thenable whose callback runs at once: React.lazy then has the module within the same render. */
function resolvedThenable<T>(value: T): Promise<T> {
  const thenable = {
    status: 'fulfilled',
    value,
    then(onFulfilled?: (v: T) => unknown) {
      onFulfilled?.(value);
      return thenable;
    },
  };
  return thenable as unknown as Promise<T>;
}
