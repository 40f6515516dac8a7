import { useEffect, useRef, useState } from 'react';
import {
  AlertTriangle,
  CloudCheck,
  CloudDownload,
  CloudOff,
  CloudUpload,
  RefreshCw,
  Wifi,
  type LucideIcon,
} from 'lucide-react';
import * as Popover from '@radix-ui/react-popover';
import { useFirstDownloadDone, useSyncEngine, useSyncStatus } from '#web/app/local-data.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { describeSyncStatus, type SyncPhase } from '../sync-status-text.ts';
import { useIssueToasts } from '../use-issue-toasts.ts';
import { PhotoUploads } from '#web/features/photos/components/photo-uploads.tsx';
import { SyncIssuesDialog } from './sync-issues-panel.tsx';

/** Re-renders every `ms` so relative times ("Last synced 3 minutes ago") stay true. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(t);
  }, [ms]);
  return now;
}

/** One icon per phase, so the states differ in shape, not only in colour or in the accessible name. */
const PHASE_ICONS: Record<SyncPhase, LucideIcon> = {
  offline: CloudOff,
  waiting: CloudUpload,
  syncing: RefreshCw,
  synced: CloudCheck,
  incomplete: CloudDownload,
};

/**
 * What a screen reader is told as the sync phase changes: losing the connection, getting it back, and
 * everything reaching the server after it waited. Not the start (the button's name says it) and not each
 * local save (its toast says it).
 */
function usePhaseAnnouncement(phase: SyncPhase, waiting: number): string {
  const previous = useRef({ phase, waiting });
  const [said, setSaid] = useState('');
  useEffect(() => {
    const was = previous.current;
    previous.current = { phase, waiting };
    if (phase === 'offline' && was.phase !== 'offline')
      setSaid('Offline. Your changes are saved on this device.');
    else if (phase !== 'offline' && was.phase === 'offline') setSaid('Back online.');
    // Pulls come and go every few seconds: only the end of a wait is news.
    else if (phase !== 'offline' && waiting === 0 && was.waiting > 0) setSaid('All changes sent.');
  }, [phase, waiting]);
  return said;
}

/** The top-bar sync state: online/offline, changes and photos waiting, last sync, and the Sync issues list. */
export function SyncIndicator({ sessionOffline = false }: { sessionOffline?: boolean }) {
  const status = useSyncStatus();
  const engine = useSyncEngine();
  const now = useNow(30_000);
  const [issuesOpen, setIssuesOpen] = useState(false);
  useIssueToasts();
  const downloaded = useFirstDownloadDone();
  const text = describeSyncStatus(status, Math.max(now, Date.now()), { sessionOffline, downloaded });
  const warn = text.staleWarning !== null || text.issues !== null || text.problem !== null;
  const Icon = text.online ? Wifi : CloudOff;
  const PhaseIcon = PHASE_ICONS[text.phase];
  // The warning icon's reason is read out too: 'Online' alone hides a sync that keeps failing. The visible
  // word is part of the name (WCAG 2.5.3) unless the state already says it ('Offline', '3 changes waiting').
  const parts = [text.state, text.changes, text.photos];
  const spoken = parts.join(' ').toLowerCase();
  const label = [
    'Sync status',
    text.state,
    spoken.includes(text.word.toLowerCase()) ? null : text.word,
    text.changes,
    text.photos,
    text.issues,
    text.problem,
  ]
    .filter(Boolean)
    .join(', ');

  const announcement = usePhaseAnnouncement(text.phase, status.pending + status.blobsPending);

  return (
    <>
      {/* The button's name changes silently; a screen reader hears the moments that matter here. */}
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="sync-announcer">
        {announcement}
      </p>
      <Popover.Root>
        <Popover.Trigger asChild>
          <Button
            variant="ghost"
            size="sm"
            aria-label={label}
            className={cn(
              'px-2',
              text.phase === 'offline' && 'text-amber-700',
              text.phase === 'synced' && 'text-teal-700',
            )}
            data-testid="sync-indicator"
            data-sync-phase={text.phase}
          >
            {/* A phone stacks the phase's icon over its word; from sm up the summary sits beside the icon. */}
            <span className="flex flex-col items-center gap-0.5 sm:flex-row sm:gap-1">
              <span className="flex items-center gap-1">
                <PhaseIcon
                  className={cn('h-4 w-4', text.phase === 'syncing' && 'motion-safe:animate-spin')}
                  aria-hidden="true"
                />
                {/* The phone header shows the count itself, not only in the popover (DESIGN.md section 7). */}
                {status.pending > 0 && (
                  <span
                    data-testid="pending-count"
                    data-warning={text.staleWarning !== null ? 'true' : undefined}
                    className={cn(
                      'min-w-5 rounded-full px-1.5 text-xs leading-5 font-semibold sm:hidden',
                      // Amber, not the red of the unread-notifications badge beside it: a warning, not a count of news.
                      text.staleWarning !== null
                        ? 'bg-amber-500 text-slate-950'
                        : 'bg-slate-200 text-slate-900',
                    )}
                  >
                    {status.pending}
                  </span>
                )}
                {warn && <AlertTriangle className="h-4 w-4 text-amber-600" aria-hidden="true" />}
              </span>
              {/* Under 360 px (a small phone, a zoomed window) the icon alone: the company's name needs the room,
                  and the button's name says the state in words. */}
              <span
                data-testid="sync-word"
                className="text-[0.6875rem] leading-none font-semibold max-[359px]:hidden sm:hidden"
              >
                {text.word}
              </span>
              <span className="hidden text-xs sm:inline">{text.summary}</span>
            </span>
          </Button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            align="end"
            sideOffset={8}
            aria-label="Sync status"
            className="z-50 w-80 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-lg focus:outline-none"
          >
            <div className="flex flex-col gap-2">
              <p className="flex items-center gap-2 font-semibold text-slate-900">
                <Icon className="h-4 w-4" aria-hidden="true" />
                {text.state}
              </p>
              <p className="text-slate-700">{text.queue}</p>
              {text.photos && <p className="text-slate-700">{text.photos}</p>}
              <PhotoUploads />
              <p className="text-slate-600">{text.lastSynced}</p>
              {text.staleWarning && (
                <p role="alert" className="rounded-md bg-amber-50 p-2 text-amber-900">
                  {text.staleWarning}
                </p>
              )}
              {text.problem && <p className="rounded-md bg-red-50 p-2 text-red-800">{text.problem}</p>}
              <div className="mt-2 flex flex-wrap gap-2">
                <Button
                  size="sm"
                  variant="outline"
                  disabled={!engine || !text.online}
                  onClick={() => void engine?.syncNow()}
                >
                  <RefreshCw className="h-4 w-4" aria-hidden="true" />
                  Sync now
                </Button>
                <Button
                  size="sm"
                  variant={status.issues > 0 ? 'destructive' : 'outline'}
                  onClick={() => setIssuesOpen(true)}
                >
                  Sync issues{status.issues > 0 ? ` (${status.issues})` : ''}
                </Button>
              </div>
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <SyncIssuesDialog open={issuesOpen} onOpenChange={setIssuesOpen} />
    </>
  );
}
