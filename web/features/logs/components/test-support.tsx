import 'fake-indexeddb/auto';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { openSyncDb, type ProjectLogRow, type SyncDb } from '#sync/db.ts';
import { mutate, newRowId } from '#sync/mutate.ts';
import { StaticLocalData, type LocalWrite } from '#web/app/local-data.tsx';
import { Toaster } from '#web/components/ui/toast.tsx';
import type { preparePhotos } from '#web/features/photos/import-photos.ts';
import { LogsScreen, type LogsScreenProps } from './logs-screen.tsx';

export { polyfillDom } from '#web/app/test-utils.tsx';

let counter = 0;

export function testDb(): SyncDb {
  counter += 1;
  return openSyncDb({ companyId: `logs-company-${counter}-${Date.now()}`, userId: 'user-1' });
}

export const writeTo =
  (db: SyncDb): LocalWrite =>
  async (table, op, rowId, data, base) => {
    await mutate(db, table, op, rowId, data, base);
  };

/**
 * jsdom's File has no `arrayBuffer()`, and under jsdom SubtleCrypto accepts only Node's own ArrayBuffer:
 * the file's bytes are read with FileReader and handed over as a Blob-like object holding a Node buffer.
 */
function readBytes(file: File): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const view = new Uint8Array(reader.result as ArrayBuffer);
      const copy = Buffer.alloc(view.byteLength);
      copy.set(view);
      resolve({ arrayBuffer: async () => copy.buffer } as unknown as Blob);
    };
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * The photo pipeline's contract without its image decoding (jsdom has none): each file kept as is, with its
 * row id, as `preparePhotos` hands it over after compressing it.
 */
export const prepareAsIs: typeof preparePhotos = async (files, input) => {
  const photos = [];
  for (const file of files) {
    photos.push({
      id: newRowId(),
      projectId: input.projectId,
      bytes: await readBytes(file),
      mimeType: file.type,
      originalName: file.name,
      description: input.description ?? null,
      tags: input.tags ?? [],
    });
  }
  return photos;
};

export const PROJECT_A = '0195a0a0-0000-7000-8000-00000000000a';
export const PROJECT_B = '0195a0a0-0000-7000-8000-00000000000b';
export const PROJECT_GONE = '0195a0a0-0000-7000-8000-0000000000ff';
export const PHOTO_1 = '0195a0a0-0000-7000-8000-000000000201';
export const PHOTO_2 = '0195a0a0-0000-7000-8000-000000000202';

let logCounter = 0;

/** A log as a pull leaves it. */
export function pulledLog(title: string, extra: Partial<ProjectLogRow> = {}): ProjectLogRow {
  logCounter += 1;
  return {
    id: `0195a0a0-0000-7000-8000-${String(logCounter).padStart(12, '0')}`,
    version: 3,
    projectId: PROJECT_A,
    userId: null,
    title,
    content: '',
    type: 'general',
    status: 'open',
    images: [],
    createdAt: '2026-06-10T12:00:00.000Z',
    ...extra,
  };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

/** The screen on `db` as the app mounts it: router (filters live in the query), device database, toasts. */
export function renderLogs(db: SyncDb, props: Partial<LogsScreenProps> = {}, path = '/logs') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const ui = (p: Partial<LogsScreenProps>) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <StaticLocalData db={db}>
          <LogsScreen db={db} write={writeTo(db)} preparePhotos={prepareAsIs} {...p} />
          <LocationProbe />
          <Toaster />
        </StaticLocalData>
      </MemoryRouter>
    </QueryClientProvider>
  );
  const result = render(ui(props));
  return { ...result, rerenderWith: (p: Partial<LogsScreenProps>) => result.rerender(ui(p)) };
}
