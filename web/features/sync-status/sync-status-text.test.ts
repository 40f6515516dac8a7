import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '#sync/engine.ts';
import { describeSyncStatus, STALE_PENDING_MS } from './sync-status-text.ts';

const NOW = Date.parse('2025-03-10T12:00:00Z');
const base: SyncStatus = {
  online: true,
  pushing: false,
  pulling: false,
  pending: 0,
  oldestPendingAt: null,
  blobsPending: 0,
  issues: 0,
  lastSyncedAt: null,
  rowsDownloaded: 0,
  error: null,
  paused: null,
  leader: true,
};
const at = (patch: Partial<SyncStatus>, options = {}) =>
  describeSyncStatus({ ...base, ...patch }, NOW, options);

describe('sync status texts', () => {
  it('says Online or Offline, and Offline while running on the remembered user', () => {
    expect(at({}).state).toBe('Online');
    expect(at({ online: false }).state).toBe('Offline');
    expect(at({}, { sessionOffline: true }).state).toBe('Offline');
    expect(at({ pushing: true }).state).toBe('Syncing...');
  });

  it('tells offline, waiting, syncing and all sent apart, each with its own word', () => {
    expect([at({}).phase, at({}).word, at({}).summary]).toEqual(['synced', 'All sent', 'All sent']);
    // Nothing waits, but the server refused a change: that is not "All sent".
    const refused = at({ issues: 1 });
    expect([refused.phase, refused.word, refused.summary]).toEqual(['synced', '1 not saved', '1 not saved']);
    const sending = at({ pushing: true, pending: 2, oldestPendingAt: NOW });
    expect([sending.phase, sending.word]).toEqual(['syncing', 'Syncing']);
    expect(at({ pulling: true }).phase).toBe('syncing');
    const waiting = at({ pending: 2, oldestPendingAt: NOW });
    expect([waiting.phase, waiting.word, waiting.summary]).toEqual([
      'waiting',
      'Waiting',
      'Online · 2 waiting',
    ]);
    // Photo bytes still on the device are work waiting too.
    expect([at({ blobsPending: 1 }).phase, at({ blobsPending: 1 }).summary]).toEqual([
      'waiting',
      '1 photo waiting',
    ]);
    // The phone's header word gives their number: its count badge counts changes only.
    expect(at({ blobsPending: 200 }).word).toBe('200 photos');
    expect(at({ pending: 1, oldestPendingAt: NOW, blobsPending: 200 }).word).toBe('Waiting');
    const offline = at({ online: false, pending: 2, oldestPendingAt: NOW });
    expect([offline.phase, offline.word]).toEqual(['offline', 'Offline']);
    expect(at({ pushing: true }, { sessionOffline: true }).phase).toBe('offline');
  });

  it('[C21] an unfinished download is not "All sent": the word says the device is not synced, the details why', () => {
    const notDownloaded = { downloaded: false };
    const failed = at(
      {
        error: {
          kind: 'server',
          message: 'The server is not available right now, error 502',
          at: NOW,
          retryAt: NOW + 2_000,
        },
      },
      notDownloaded,
    );
    expect([failed.phase, failed.word, failed.summary]).toEqual(['incomplete', 'Not synced', 'Not synced']);
    expect(failed.lastSynced).toBe('Your data has not finished downloading');
    expect(at({ paused: 'unauthorized' }, notDownloaded).word).toBe('Not synced');
    // Downloading, offline, or with changes waiting, the phase says so as on a downloaded device.
    expect(at({ pulling: true }, notDownloaded).phase).toBe('syncing');
    expect(at({ online: false }, notDownloaded).phase).toBe('offline');
    expect(at({ pending: 1, oldestPendingAt: NOW }, notDownloaded).phase).toBe('waiting');
    // Once downloaded (or while that is still being read), all sent is all sent.
    expect(at({}, { downloaded: true }).word).toBe('All sent');
    expect(at({}).word).toBe('All sent');
  });

  it('says how old the oldest unsent change is in the details, whatever its age', () => {
    expect(at({ pending: 1, oldestPendingAt: NOW - 20_000 }).queue).toBe(
      '1 change waiting, the oldest made just now',
    );
    expect(at({ pending: 2, oldestPendingAt: NOW - 12 * 60_000 }).queue).toBe(
      '2 changes waiting, the oldest made 12 minutes ago',
    );
    expect(at({ pending: 2, oldestPendingAt: NOW - 5 * 3600_000, online: false }).queue).toBe(
      '2 changes waiting, the oldest made 5 hours ago',
    );
    expect(at({}).queue).toBe('All changes sent');
  });

  it('counts changes and photos waiting, singular and plural', () => {
    expect(at({}).changes).toBeNull();
    expect(at({ pending: 1, oldestPendingAt: NOW }).changes).toBe('1 change waiting');
    expect(at({ pending: 3, oldestPendingAt: NOW }).changes).toBe('3 changes waiting');
    expect(at({ blobsPending: 1 }).photos).toBe('1 photo waiting');
    expect(at({ blobsPending: 4 }).photos).toBe('4 photos waiting');
    expect(at({ pending: 3, oldestPendingAt: NOW, online: false }).summary).toBe('Offline · 3 waiting');
  });

  it('says when it last synced', () => {
    expect(at({}).lastSynced).toBe('Not synced yet');
    expect(at({ lastSyncedAt: NOW - 10_000 }).lastSynced).toBe('Last synced just now');
    expect(at({ lastSyncedAt: NOW - 5 * 60_000 }).lastSynced).toBe('Last synced 5 minutes ago');
    expect(at({ lastSyncedAt: NOW - 2 * 3600_000 }).lastSynced).toBe('Last synced 2 hours ago');
  });

  it('warns when the oldest unsent change is older than 3 days, not before', () => {
    expect(at({ pending: 2, oldestPendingAt: NOW - STALE_PENDING_MS }).staleWarning).toBeNull();
    const warning = at({ pending: 2, oldestPendingAt: NOW - STALE_PENDING_MS - 3600_000 }).staleWarning;
    expect(warning).toMatch(/^Your oldest unsent change is 3 days old/);
  });

  it('names sync issues and why the queue is paused', () => {
    expect(at({ issues: 1 }).issues).toBe('1 sync issue');
    expect(at({ issues: 2 }).issues).toBe('2 sync issues');
    expect(at({ paused: 'unauthorized' }).problem).toMatch(/sign in again/);
    expect(at({ paused: 'schema' }).problem).toMatch(/update the app/);
    const error = { kind: 'network' as const, message: 'offline', at: NOW, retryAt: NOW + 1000 };
    expect(at({ error }).problem).toBeNull();
    expect(at({ error: { ...error, kind: 'server', message: 'busy' } }).problem).toBe('Sync failed: busy');
  });
});
