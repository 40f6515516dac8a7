import { useRef, useState } from 'react';
import { Menu } from 'lucide-react';
import * as D from '@radix-ui/react-dialog';
import { Button } from '#web/components/ui/button.tsx';
import type { SessionUser } from '#web/lib/session-user.ts';
import { mobileMenuItems } from './nav-items.ts';
import { NavList } from './sidebar.tsx';

/** The mobile menu: a sheet from the left with the sidebar items (RBAC Admin only for admins). */
export function MobileMenu({ user }: { user: Pick<SessionUser, 'permissions' | 'role'> }) {
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  return (
    <D.Root open={open} onOpenChange={setOpen}>
      <D.Trigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
          <Menu className="h-5 w-5" aria-hidden="true" />
        </Button>
      </D.Trigger>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/40 md:hidden" />
        {/* Its end stays above the toast band (styles.css): a toast never covers Close menu. */}
        <D.Content
          // Radix skips links for the first focus (it landed on Close menu): the current screen's link, or
          // the first one, is where a keyboard user starts. Close menu stays in the Tab order.
          onOpenAutoFocus={(event) => {
            const links = nav.current;
            const link =
              links?.querySelector<HTMLElement>('a[aria-current=page]') ?? links?.querySelector('a');
            if (!link) return;
            event.preventDefault();
            link.focus();
          }}
          className="fixed inset-y-0 left-0 z-50 flex w-72 flex-col gap-4 overflow-y-auto bg-white p-4 pb-[var(--toast-band)] shadow-xl focus:outline-none md:hidden"
        >
          <D.Title className="text-lg font-bold text-slate-900">SiteCommand</D.Title>
          <D.Description className="sr-only">Go to another screen</D.Description>
          <nav ref={nav} aria-label="Mobile">
            <NavList items={mobileMenuItems(user)} onNavigate={() => setOpen(false)} />
          </nav>
          <D.Close asChild>
            <Button variant="outline" className="mt-auto">
              Close menu
            </Button>
          </D.Close>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
