// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { useState, type ReactNode } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AlertDialog, AlertDialogContent } from './alert-dialog.tsx';
import { Dialog, DialogContent } from './dialog.tsx';

afterEach(cleanup);

type Shape = (props: { open: boolean; close: () => void; children: ReactNode }) => ReactNode;

const dialog: Shape = ({ open, close, children }) => (
  <Dialog open={open} onOpenChange={(next) => !next && close()}>
    <DialogContent title="Edit Project">{children}</DialogContent>
  </Dialog>
);
const alertDialog: Shape = ({ open, close, children }) => (
  <AlertDialog open={open} onOpenChange={(next) => !next && close()}>
    <AlertDialogContent title="Delete project?" description="This cannot be undone.">
      {children}
    </AlertDialogContent>
  </AlertDialog>
);

/** A page whose button opens the dialog; Save closes it by unmounting it or by `open={false}`. */
function Page({ shape: Shape, unmount }: { shape: Shape; unmount: boolean }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const save = <button onClick={close}>Save Changes</button>;
  return (
    <>
      <button onClick={() => setOpen(true)}>Edit project</button>
      {unmount ? (
        open && (
          <Shape open close={close}>
            {save}
          </Shape>
        )
      ) : (
        <Shape open={open} close={close}>
          {save}
        </Shape>
      )}
    </>
  );
}

describe('a closing dialog', () => {
  for (const [name, shape] of [
    ['Dialog', dialog],
    ['AlertDialog', alertDialog],
  ] as const) {
    for (const unmount of [true, false]) {
      it(`${name} (${unmount ? 'unmounted' : 'open set to false'}): its focused button loses the focus while still in the page, then the opener has it again`, async () => {
        const user = userEvent.setup();
        render(<Page shape={shape} unmount={unmount} />);
        await user.click(screen.getByRole('button', { name: 'Edit project' }));
        const save = await screen.findByRole('button', { name: 'Save Changes' });
        save.focus();
        // Removing the focused element costs Chromium a forced style and layout of the page (B7): the
        // blur must come first, while the button is still connected.
        const blurredWhileConnected: boolean[] = [];
        save.addEventListener('blur', () => blurredWhileConnected.push(save.isConnected));
        await user.click(save);
        await waitFor(() => expect(save.isConnected).toBe(false));
        expect(blurredWhileConnected).toEqual([true]);
        const opener = screen.getByRole('button', { name: 'Edit project' });
        await waitFor(() => expect(document.activeElement).toBe(opener));
      });
    }
  }
});
