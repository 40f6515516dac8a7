import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';

/**
 * The new user's one-time password, shown this once (DECISIONS.md: no shared default password). The
 * server never shows it again, so the dialog says so and offers a copy button.
 */
export function OneTimePasswordDialog({
  email,
  password,
  onClose,
}: {
  email: string;
  password: string;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="One-time password" description={`Give this password to ${email}.`}>
        <div className="grid gap-3">
          <div className="flex items-center gap-2">
            <code
              aria-label="One-time password"
              className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-base break-all select-all"
            >
              {password}
            </code>
            <Button variant="outline" onClick={() => void copy()} aria-label="Copy password">
              {copied === 'yes' ? (
                <Check className="h-4 w-4" aria-hidden />
              ) : (
                <Copy className="h-4 w-4" aria-hidden />
              )}
              {copied === 'yes' ? 'Copied' : 'Copy'}
            </Button>
          </div>
          {copied === 'failed' && (
            <p role="alert" className="text-sm text-red-700">
              Copying is not allowed here: select the password and copy it yourself.
            </p>
          )}
          <p className="text-sm text-slate-700">
            It must be changed at first sign-in. It is shown only now: once this dialog closes it cannot be
            seen again.
          </p>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
