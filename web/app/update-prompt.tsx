import { Button } from '#web/components/ui/button.tsx';
import { applyUpdate, setPwaState, usePwaState } from './pwa-state.ts';

/** "A new version is available" with Reload / Later: never a forced reload (DESIGN.md section 12). */
export function UpdatePrompt() {
  const { needRefresh } = usePwaState();
  if (!needRefresh) return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby="update-prompt-title"
      data-above-page-cover=""
      // Above the toast band on a phone, where a toast spans the width (styles.css).
      className="fixed bottom-4 left-4 z-[90] max-sm:bottom-[var(--toast-band)] flex max-w-sm flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
    >
      <p id="update-prompt-title" className="text-sm font-medium text-slate-900">
        A new version is available
      </p>
      <p className="text-sm text-slate-600">Reload to use it. Your saved changes stay on this device.</p>
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={() => setPwaState({ needRefresh: false })}>
          Later
        </Button>
        <Button size="sm" onClick={() => void applyUpdate()}>
          Reload
        </Button>
      </div>
    </div>
  );
}
