import { useEffect, useRef } from 'react';

export interface TaskShortcuts {
  /** Ctrl+N (Cmd+N on a Mac): a new task. */
  onNew?: () => void;
  /** E: edit the single selected task. */
  onEdit?: () => void;
  /** S: toggle the single selected task. */
  onToggle?: () => void;
  /** Ctrl/Cmd+F: focus the search box. */
  onFind: () => void;
}

/** Whether the key went to something the user types into: E and S must not fire there (spec 02 section 2). */
/** Inputs that take no typed text: a key pressed on one (a ticked bulk checkbox) is a shortcut. */
const NOT_TYPED = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'image',
  'file',
  'range',
  'color',
]);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  // An open menu (a row's status) takes letters as typeahead: S there picks a status, not the shortcut.
  if (target.closest('[role="menu"]')) return true;
  return target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

/**
 * The keyboard shortcuts of the Task Management screen (spec 02 section 2). Ignored while a dialog is open
 * (it owns the keyboard) and, for E and S, while typing.
 */
export function useTaskShortcuts(shortcuts: TaskShortcuts, enabled: boolean): void {
  const ref = useRef(shortcuts);
  ref.current = shortcuts;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey) return;
      const s = ref.current;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && !e.shiftKey && key === 'n' && s.onNew) {
        e.preventDefault();
        s.onNew();
        return;
      }
      if (mod && !e.shiftKey && key === 'f') {
        e.preventDefault();
        s.onFind();
        return;
      }
      if (mod || e.shiftKey || isTyping(e.target)) return;
      if (key === 'e' && s.onEdit) {
        e.preventDefault();
        s.onEdit();
      } else if (key === 's' && s.onToggle) {
        e.preventDefault();
        s.onToggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
