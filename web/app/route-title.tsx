import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

const APP_NAME = 'SiteCommand';

/**
 * The tab's title for the screen at the address ("Tasks · SiteCommand"), so tabs, history and a screen
 * reader's window title tell screens apart (WCAG 2.4.2), and after a navigation inside the app the new
 * screen's name is announced: a client-side route change otherwise says nothing to a screen reader (its
 * focus stays on the link it pressed). The first page load is not announced; the browser reads the title.
 */
export function RouteTitle({ titleOf }: { titleOf: (pathname: string) => string | null }) {
  const { pathname } = useLocation();
  const screen = titleOf(pathname);
  const title = screen ? `${screen} · ${APP_NAME}` : APP_NAME;
  const [announced, setAnnounced] = useState('');
  const first = useRef(true);
  useEffect(() => {
    document.title = title;
    if (first.current) first.current = false;
    else setAnnounced(screen ?? APP_NAME);
  }, [title, screen]);
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announced}
    </p>
  );
}
