import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';

/** What browsers say when a script chunk could not be fetched (Chromium, Safari, Firefox). */
const CHUNK_FAILED =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

/** The words for an error that stopped a screen from showing, by its cause. */
export function screenErrorText(error: unknown, online: boolean): { title: string; text: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (CHUNK_FAILED.test(message)) {
    return {
      title: 'This screen could not be loaded',
      text: online
        ? 'Part of the app could not be downloaded. Check your connection, then reload.'
        : 'You are offline, and this part of the app is not on this device yet. Reconnect, then reload. Your saved work is safe on this device.',
    };
  }
  return {
    title: 'Something went wrong',
    text: 'This screen stopped with an error. Reload to try again. Your saved work is safe on this device.',
  };
}

interface Props {
  children: ReactNode;
  /** A new key (the address) clears the error: the user can leave for another screen. */
  resetKey: string;
  /** Reloads the page (a test seam). */
  reload?: () => void;
}

interface State {
  error: unknown;
  key: string;
}

/**
 * Keeps an error in one screen (a chunk that could not be fetched offline, a render that threw) inside that
 * screen: the shell, its navigation and the sync state stay, and the screen says what happened. Without it
 * React removes the whole app and leaves a white page.
 */
export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A screen stopped with an error', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const { title, text } = screenErrorText(error, typeof navigator === 'undefined' || navigator.onLine);
    const reload = this.props.reload ?? (() => window.location.reload());
    // Plain elements, not the Card and Button components: this is in the app's first script.
    return (
      <section className="mx-auto max-w-3xl p-6" role="alert">
        <div className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <div className="flex items-center gap-2 text-amber-700">
            <AlertTriangle className="h-5 w-5" aria-hidden="true" />
            <h1 className="text-xl font-semibold">{title}</h1>
          </div>
          <p className="text-sm text-slate-600">{text}</p>
          <div>
            <button
              type="button"
              onClick={reload}
              className="mt-1 h-11 min-w-11 rounded-md bg-teal-700 px-4 text-sm font-medium text-white hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600"
            >
              Reload
            </button>
          </div>
        </div>
      </section>
    );
  }
}
