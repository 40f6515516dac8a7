// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncDb } from '#sync/db.ts';
import { resetToasts } from '#web/components/ui/use-toast.ts';
import {
  PHOTO_1,
  PHOTO_2,
  polyfillDom,
  PROJECT_A,
  PROJECT_B,
  PROJECT_GONE,
  pulledLog,
  renderLogs,
  testDb,
} from './test-support.tsx';

beforeAll(polyfillDom);
// The full suite shares two cores: a first read of the device database can take over the 1 s default.
configure({ asyncUtilTimeout: 5_000 });

let db: SyncDb;
afterEach(async () => {
  vi.useRealTimers();
  cleanup();
  resetToasts();
  db?.close();
});

const card = (title: string) => screen.getByRole('article', { name: title });
const titles = () => screen.queryAllByRole('article').map((a) => a.getAttribute('aria-label'));
const outbox = () => db.outbox.orderBy('seq').toArray();
const pick = async (
  user: ReturnType<typeof userEvent.setup>,
  scope: ReturnType<typeof within> | typeof screen,
  label: string,
  option: string,
) => {
  await user.click(scope.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
};

async function seed(logs = [] as ReturnType<typeof pulledLog>[]) {
  db = testDb();
  await db.projects.bulkPut([
    { id: PROJECT_A, version: 1, name: 'Harbor Tower', status: 'active', location: 'Pier 4' },
    { id: PROJECT_B, version: 1, name: 'Bridge Repair', status: 'active', location: 'River' },
  ]);
  await db.project_logs.bulkPut(logs);
  return db;
}

describe('Project Logs: loading and empty states', () => {
  it('with filters that match nothing, says so and offers Clear All Filters', async () => {
    await seed([pulledLog('Slab pour')]);
    const user = userEvent.setup();
    renderLogs(db);
    await screen.findByRole('article', { name: 'Slab pour' });
    await user.type(screen.getByRole('searchbox', { name: 'Search logs' }), 'crane');
    expect(await screen.findByText('No logs found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your filters or search terms')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear All Filters' }));
    expect(await screen.findByRole('article', { name: 'Slab pour' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear All Filters' })).toBeNull();
  });
});

describe('Project Logs: cards', () => {
  it("marks a card 'Waiting to sync' while one of its photos has not reached the server", async () => {
    await seed([pulledLog('Slab pour', { images: [`/api/photos/${PHOTO_1}/file`] })]);
    const sha = 'a'.repeat(64);
    await db.photos.put({
      id: PHOTO_1,
      version: 2,
      projectId: PROJECT_A,
      sha256: sha,
      blobStatus: 'pending',
    });
    await db.blobs.put({
      sha256: sha,
      bytes: new ArrayBuffer(4),
      mimeType: 'image/jpeg',
      size: 4,
      status: 'pending',
      createdAt: 0,
      lastUsedAt: 0,
      attempts: 3,
      nextAttemptAt: 0,
    });
    renderLogs(db);
    const c = await screen.findByRole('article', { name: 'Slab pour' });
    expect(await within(c).findByText('Waiting to sync')).toBeTruthy();
    await db.blobs.update(sha, { status: 'uploaded' });
    await waitFor(() => expect(within(c).queryByText('Waiting to sync')).toBeNull());
  });

  it('shows type, title, project or Unknown Project, badges, content, photos opening in a new tab, date', async () => {
    await seed([
      pulledLog('Crane inspection', {
        type: 'safety',
        status: 'in-progress',
        content: 'Outrigger pads checked',
        images: [`/api/photos/${PHOTO_1}/file`, `/api/photos/${PHOTO_2}/file`],
        createdAt: '2026-06-10T15:45:00.000Z',
      }),
      pulledLog('Orphan note', { projectId: PROJECT_GONE, createdAt: '2026-06-09T10:00:00.000Z' }),
    ]);
    renderLogs(db, { timeZone: 'America/New_York' });
    const c = await screen.findByRole('article', { name: 'Crane inspection' });
    const inCard = within(c);
    expect(inCard.getByLabelText('Safety log')).toBeTruthy();
    expect(inCard.getByText('Harbor Tower')).toBeTruthy();
    expect(inCard.getByText('Safety')).toBeTruthy();
    expect(inCard.getByText('In Progress')).toBeTruthy();
    expect(inCard.getByText('Outrigger pads checked')).toBeTruthy();
    const links = within(inCard.getByRole('list', { name: 'Photos' })).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      `/api/photos/${PHOTO_1}/file`,
      `/api/photos/${PHOTO_2}/file`,
    ]);
    expect(links.every((a) => a.getAttribute('target') === '_blank')).toBe(true);
    // 15:45 UTC is 11:45 in New York.
    expect(inCard.getByText('Jun 10, 2026, 11:45 AM')).toBeTruthy();
    expect(within(card('Orphan note')).getByText('Unknown Project')).toBeTruthy();
    expect(titles()).toEqual(['Crane inspection', 'Orphan note']);
  });

  it('the next-step button follows open, in-progress, resolved, closed and is gone once closed', async () => {
    const log = pulledLog('Rebar delivery');
    await seed([log]);
    const user = userEvent.setup();
    renderLogs(db);
    await screen.findByRole('article', { name: 'Rebar delivery' });
    for (const [label, next, shown] of [
      ['Start Progress', 'in-progress', 'In Progress'],
      ['Mark Resolved', 'resolved', 'Resolved'],
      ['Close', 'closed', 'Closed'],
    ] as const) {
      await user.click(within(card('Rebar delivery')).getByRole('button', { name: label }));
      await waitFor(async () => expect((await db.project_logs.get(log.id))?.status).toBe(next));
      expect(await within(card('Rebar delivery')).findByText(shown)).toBeTruthy();
    }
    const c = within(card('Rebar delivery'));
    for (const name of ['Start Progress', 'Mark Resolved', 'Close']) {
      expect(c.queryByRole('button', { name })).toBeNull();
    }
    // Each step is a patch of the status alone.
    expect((await outbox()).map((e) => e.data)).toEqual([
      { status: 'in-progress' },
      { status: 'resolved' },
      { status: 'closed' },
    ]);
  });

  it('Delete asks first: Cancel keeps the log, Delete removes it and queues the delete', async () => {
    const log = pulledLog('Wrong entry');
    await seed([log]);
    const user = userEvent.setup();
    renderLogs(db);
    await screen.findByRole('article', { name: 'Wrong entry' });
    await user.click(within(card('Wrong entry')).getByRole('button', { name: 'Delete Wrong entry' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await db.project_logs.get(log.id)).toBeTruthy();
    expect(await outbox()).toHaveLength(0);

    await user.click(within(card('Wrong entry')).getByRole('button', { name: 'Delete Wrong entry' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No logs found')).toBeTruthy();
    expect((await outbox()).map((e) => [e.op, e.rowId])).toEqual([['delete', log.id]]);
  });

  it('hides Create, Edit, Delete and the status step from a user without those permissions; History stays', async () => {
    await seed([pulledLog('Read only')]);
    renderLogs(db, { can: () => false });
    const c = within(await screen.findByRole('article', { name: 'Read only' }));
    expect(c.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'History of Read only',
    ]);
    expect(screen.queryByRole('button', { name: 'Create Log' })).toBeNull();
    await userEvent.setup().click(c.getByRole('button', { name: 'History of Read only' }));
    expect(await screen.findByRole('dialog', { name: 'History of Read only' })).toBeTruthy();
  });
});

describe('Project Logs: filters', () => {
  const logs = () => [
    pulledLog('Concrete pour', { type: 'milestone', status: 'open', content: 'Level 3 slab' }),
    pulledLog('Scaffold gap', {
      projectId: PROJECT_B,
      type: 'safety',
      status: 'resolved',
      content: 'Guard rail MISSING',
    }),
    pulledLog('Weekly summary', { type: 'general', status: 'closed' }),
  ];

  it('search matches title or content, case-insensitive, and is kept in the URL', async () => {
    await seed(logs());
    const user = userEvent.setup();
    renderLogs(db);
    await screen.findByRole('article', { name: 'Concrete pour' });
    await user.type(screen.getByRole('searchbox', { name: 'Search logs' }), 'guard rail');
    await waitFor(() => expect(titles()).toEqual(['Scaffold gap']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search logs' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search logs' }), 'CONCRETE');
    await waitFor(() => expect(titles()).toEqual(['Concrete pour']));
    expect(screen.getByTestId('location').textContent).toBe('?q=CONCRETE');
  });

  it('project, type and status filters each narrow the list', async () => {
    await seed(logs());
    const user = userEvent.setup();
    renderLogs(db);
    await screen.findByRole('article', { name: 'Concrete pour' });
    await pick(user, screen, 'Project', 'Bridge Repair');
    await waitFor(() => expect(titles()).toEqual(['Scaffold gap']));
    await pick(user, screen, 'Project', 'All Projects');
    await pick(user, screen, 'Type', 'Milestone');
    await waitFor(() => expect(titles()).toEqual(['Concrete pour']));
    await pick(user, screen, 'Type', 'All Types');
    await pick(user, screen, 'Status', 'Closed');
    await waitFor(() => expect(titles()).toEqual(['Weekly summary']));
    expect(screen.getByTestId('location').textContent).toBe('?status=closed');
  });

  it('opens with the filters a shared link carries', async () => {
    await seed(logs());
    renderLogs(db, {}, `/logs?project=${PROJECT_B}&type=safety`);
    await waitFor(() => expect(titles()).toEqual(['Scaffold gap']));
    expect(screen.getByRole('button', { name: 'Clear All Filters' })).toBeTruthy();
  });

  it('Today, This Week and This Month count days in the company zone (23:30 in Los Angeles)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 23:30 on 10 June in Los Angeles.
    vi.setSystemTime(new Date('2026-06-11T06:30:00Z'));
    await seed([
      pulledLog('Tonight', { createdAt: '2026-06-11T05:00:00Z' }), // 22:00 on 10 June in LA
      pulledLog('This morning', { createdAt: '2026-06-10T08:00:00Z' }), // 01:00 on 10 June
      pulledLog('Six days ago', { createdAt: '2026-06-04T08:00:00Z' }), // 01:00 on 4 June
      pulledLog('Seven days ago', { createdAt: '2026-06-04T06:00:00Z' }), // 23:00 on 3 June
      pulledLog('Last month', { createdAt: '2026-05-11T08:00:00Z' }), // 01:00 on 11 May
      pulledLog('Too old', { createdAt: '2026-05-10T08:00:00Z' }),
    ]);
    const user = userEvent.setup();
    renderLogs(db, { timeZone: 'America/Los_Angeles' });
    await screen.findByRole('article', { name: 'Tonight' });
    await pick(user, screen, 'Date', 'Today');
    await waitFor(() => expect(titles()).toEqual(['Tonight', 'This morning']));
    await pick(user, screen, 'Date', 'This Week');
    await waitFor(() => expect(titles()).toEqual(['Tonight', 'This morning', 'Six days ago']));
    await pick(user, screen, 'Date', 'This Month');
    await waitFor(() =>
      expect(titles()).toEqual(['Tonight', 'This morning', 'Six days ago', 'Seven days ago', 'Last month']),
    );
    await pick(user, screen, 'Date', 'All Dates');
    await waitFor(() => expect(titles()).toHaveLength(6));
  });

  it('Today at 00:30 in Auckland starts at Auckland midnight', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 00:30 on 11 June in Auckland (UTC+12).
    vi.setSystemTime(new Date('2026-06-10T12:30:00Z'));
    await seed([
      pulledLog('Just after midnight', { createdAt: '2026-06-10T12:05:00Z' }),
      pulledLog('Just before midnight', { createdAt: '2026-06-10T11:55:00Z' }),
    ]);
    renderLogs(db, { timeZone: 'Pacific/Auckland' }, '/logs?date=today');
    await waitFor(() => expect(titles()).toEqual(['Just after midnight']));
  });

  it('Custom Range applies once both dates are set and includes the whole end day', async () => {
    await seed([
      pulledLog('End of range', { createdAt: '2026-06-05T23:59:00Z' }),
      pulledLog('After range', { createdAt: '2026-06-06T00:01:00Z' }),
      pulledLog('Start of range', { createdAt: '2026-06-01T00:00:00Z' }),
      pulledLog('Before range', { createdAt: '2026-05-31T23:59:00Z' }),
    ]);
    const user = userEvent.setup();
    renderLogs(db, { timeZone: 'UTC' });
    await screen.findByRole('article', { name: 'End of range' });
    await pick(user, screen, 'Date', 'Custom Range');
    const start = screen.getByLabelText('Start date');
    const end = screen.getByLabelText('End date');
    await user.type(start, '2026-06-01');
    // Only the start: every log still shows.
    await waitFor(() => expect(titles()).toHaveLength(4));
    await user.type(end, '2026-06-05');
    await waitFor(() => expect(titles()).toEqual(['End of range', 'Start of range']));
    await user.click(screen.getByRole('button', { name: 'Clear All Filters' }));
    await waitFor(() => expect(titles()).toHaveLength(4));
    expect(screen.getByTestId('location').textContent).toBe('');
  });

  it('a range whose end is before its start (a typed or linked address) says why nothing matches', async () => {
    await seed([pulledLog('Mid June', { createdAt: '2026-06-15T12:00:00Z' })]);
    renderLogs(db, { timeZone: 'UTC' }, '/logs?date=custom&start=2026-06-20&end=2026-06-10');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The end date is before the start date, so no log can match. Pick an end on or after the start.',
    );
    expect(titles()).toEqual([]);
  });
});

const jpeg = (name: string, size = 2048) =>
  new File([new Uint8Array(size).fill(7)], name, { type: 'image/jpeg' });

describe('Project Logs: Create Log and Edit', () => {
  it('create: project and title are required, nothing is written until they are given', async () => {
    await seed();
    const user = userEvent.setup();
    renderLogs(db);
    await screen.findByText('No logs found');
    await user.click(screen.getByRole('button', { name: 'Create Log' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create Project Log' }));
    // Spec 02 section 5: type general and status open by default.
    expect(d.getByRole('combobox', { name: 'Type' }).textContent).toBe('General');
    expect(d.getByRole('combobox', { name: 'Status' }).textContent).toBe('Open');
    await user.click(d.getByRole('button', { name: 'Create Log' }));
    expect(await d.findByText('Project is required')).toBeTruthy();
    expect(d.getByText('Title is required')).toBeTruthy();
    expect(await outbox()).toHaveLength(0);

    await pick(user, d, 'Project', 'Bridge Repair');
    await user.type(d.getByLabelText(/^Title/), '  Deck pour  ');
    await user.type(d.getByLabelText('Content'), 'Poured 40 m3');
    await pick(user, d, 'Type', 'Milestone');
    await user.click(d.getByRole('button', { name: 'Create Log' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [entry] = await outbox();
    expect(entry?.op).toBe('create');
    expect(entry?.data).toEqual({
      projectId: PROJECT_B,
      title: 'Deck pour',
      content: 'Poured 40 m3',
      type: 'milestone',
      status: 'open',
      images: [],
    });
    expect(await screen.findByRole('article', { name: 'Deck pour' })).toBeTruthy();
  });

  it('create with photos: images only, at most 5 per save, tagged, and the log names its photos', async () => {
    await seed();
    const user = userEvent.setup({ applyAccept: false });
    renderLogs(db);
    await screen.findByText('No logs found');
    await user.click(screen.getByRole('button', { name: 'Create Log' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create Project Log' }));
    await pick(user, d, 'Project', 'Harbor Tower');
    await user.type(d.getByLabelText(/^Title/), 'Site walk');
    const notImage = new File(['x'], 'notes.pdf', { type: 'application/pdf' });
    const tooBig = new File([new Uint8Array(10_485_761)], 'huge.jpg', { type: 'image/jpeg' });
    await user.upload(d.getByLabelText('Add photos'), [
      notImage,
      tooBig,
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((n) => jpeg(`${n}.jpg`, 100 + n.charCodeAt(0))),
    ]);
    expect(d.getByText('notes.pdf is not an image')).toBeTruthy();
    expect(d.getByText('huge.jpg is larger than 10 MB')).toBeTruthy();
    expect(d.getByText('Up to 5 photos per save: 1 photo was not added')).toBeTruthy();
    expect(within(d.getByRole('list', { name: 'New photos' })).getAllByRole('listitem')).toHaveLength(5);
    await user.click(d.getByRole('button', { name: 'Remove new photo e.jpg' }));

    // Tags: trimmed, a duplicate (any case) is not added; Enter or Add.
    await user.type(d.getByLabelText('Tags'), '  rebar  {Enter}');
    await user.type(d.getByLabelText('Tags'), 'REBAR');
    await user.click(d.getByRole('button', { name: 'Add tag' }));
    await user.type(d.getByLabelText('Tags'), 'level 3{Enter}');
    expect(
      within(d.getByRole('list', { name: 'Chosen tags' }))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(['rebar', 'level 3']);

    await user.click(d.getByRole('button', { name: 'Create Log' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const photos = await db.photos.orderBy('createdAt').toArray();
    expect(photos.map((p) => p.originalName).sort()).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    expect(photos.every((p) => p.projectId === PROJECT_A && p.tags?.join() === 'rebar,level 3')).toBe(true);
    const log = (await db.project_logs.toArray())[0];
    expect(log?.images?.sort()).toEqual(photos.map((p) => `/api/photos/${p.id}/file`).sort());
    // The photos are queued before the log, so the server knows them when the log names them.
    const ops = (await outbox()).map((e) => e.table);
    expect(ops).toEqual(['photos', 'photos', 'photos', 'photos', 'project_logs']);
    const c = await screen.findByRole('article', { name: 'Site walk' });
    expect(within(c).getAllByRole('link')).toHaveLength(4);
  });

  it('edit: shows the stored values and photos, and a title change patches only the title', async () => {
    const log = pulledLog('Morning report', {
      content: 'Crew of 6',
      type: 'issue',
      status: 'in-progress',
      images: [`/api/photos/${PHOTO_1}/file`],
    });
    await seed([log]);
    const user = userEvent.setup();
    renderLogs(db);
    await user.click(await screen.findByRole('button', { name: 'Edit Morning report' }));
    const d = within(await screen.findByRole('dialog', { name: 'Edit Project Log' }));
    expect(d.getByRole('combobox', { name: 'Project' }).textContent).toBe('Harbor Tower');
    expect((d.getByLabelText('Content') as HTMLTextAreaElement).value).toBe('Crew of 6');
    expect(d.getByRole('combobox', { name: 'Type' }).textContent).toBe('Issue');
    expect(d.getByRole('combobox', { name: 'Status' }).textContent).toBe('In Progress');
    expect(d.getByRole('img', { name: 'Current photo 1' }).getAttribute('src')).toBe(
      `/api/photos/${PHOTO_1}/file`,
    );
    await user.clear(d.getByLabelText(/^Title/));
    await user.type(d.getByLabelText(/^Title/), 'Morning report, day 2');
    await user.click(d.getByRole('button', { name: 'Update Log' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await outbox()).map((e) => [e.op, e.data])).toEqual([
      ['patch', { title: 'Morning report, day 2' }],
    ]);
  });

  it('edit: removing a photo and adding one patches only the images, keeping the rest', async () => {
    const log = pulledLog('Punch list', {
      images: [`/api/photos/${PHOTO_1}/file`, `/api/photos/${PHOTO_2}/file`],
    });
    await seed([log]);
    const user = userEvent.setup();
    renderLogs(db);
    await user.click(await screen.findByRole('button', { name: 'Edit Punch list' }));
    const d = within(await screen.findByRole('dialog', { name: 'Edit Project Log' }));
    await user.click(d.getByRole('button', { name: 'Remove current photo 1' }));
    await user.upload(d.getByLabelText('Add more photos'), jpeg('new.jpg'));
    await user.click(d.getByRole('button', { name: 'Update Log' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [photo] = await db.photos.toArray();
    const entries = await outbox();
    expect(entries.map((e) => e.table)).toEqual(['photos', 'project_logs']);
    expect(entries[1]?.data).toEqual({
      images: [`/api/photos/${PHOTO_2}/file`, `/api/photos/${photo?.id}/file`],
    });
  });

  it('a failing photo import keeps the dialog open with what was typed and writes no log', async () => {
    await seed();
    const user = userEvent.setup();
    renderLogs(db, {
      preparePhotos: async () => {
        throw new Error('disk full');
      },
    });
    await screen.findByText('No logs found');
    await user.click(screen.getByRole('button', { name: 'Create Log' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create Project Log' }));
    await pick(user, d, 'Project', 'Harbor Tower');
    await user.type(d.getByLabelText(/^Title/), 'With photo');
    await user.upload(d.getByLabelText('Add photos'), jpeg('a.jpg'));
    await user.click(d.getByRole('button', { name: 'Create Log' }));
    expect(await screen.findByText('Upload Error')).toBeTruthy();
    expect(screen.getAllByText(/Failed to upload photos\.\.\. disk full/).length).toBeGreaterThan(0);
    expect((d.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('With photo');
    expect(await db.project_logs.count()).toBe(0);
  });

  it('a log whose own write fails keeps none of its photos, and Create again stores each photo once', async () => {
    await seed();
    const user = userEvent.setup();
    renderLogs(db);
    await screen.findByText('No logs found');
    // The log's write is refused once, after its photos were compressed (a full device, a closed tab).
    let refuse = true;
    db.project_logs.hook('creating', () => {
      if (!refuse) return;
      refuse = false;
      throw new Error('the device refused the write');
    });
    await user.click(screen.getByRole('button', { name: 'Create Log' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create Project Log' }));
    await pick(user, d, 'Project', 'Harbor Tower');
    await user.type(d.getByLabelText(/^Title/), 'Rebar check');
    await user.upload(d.getByLabelText('Add photos'), [jpeg('a.jpg'), jpeg('b.jpg', 200)]);
    await user.click(d.getByRole('button', { name: 'Create Log' }));
    expect(await screen.findByText('Failed to create project log')).toBeTruthy();
    // Nothing of the save is on the device: no photo in the gallery without its log, nothing queued.
    expect(await db.photos.count()).toBe(0);
    expect(await db.blobs.count()).toBe(0);
    expect(await outbox()).toHaveLength(0);

    // The dialog kept what was picked: a second Create saves the log and its two photos, once each.
    await user.click(d.getByRole('button', { name: 'Create Log' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const photos = await db.photos.toArray();
    expect(photos.map((p) => p.originalName).sort()).toEqual(['a.jpg', 'b.jpg']);
    const [log] = await db.project_logs.toArray();
    expect(log?.images?.sort()).toEqual(photos.map((p) => `/api/photos/${p.id}/file`).sort());
    expect((await outbox()).map((e) => e.table)).toEqual(['photos', 'photos', 'project_logs']);
  });

  it('edit: a failing photo import says so, and the log is not patched', async () => {
    await seed([pulledLog('Handover')]);
    const user = userEvent.setup();
    renderLogs(db, {
      preparePhotos: async () => {
        throw new Error('disk full');
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Handover' }));
    const d = within(await screen.findByRole('dialog', { name: 'Edit Project Log' }));
    await user.upload(d.getByLabelText('Add more photos'), jpeg('a.jpg'));
    await user.click(d.getByRole('button', { name: 'Update Log' }));
    expect(
      (await screen.findAllByText(/Failed to upload new photos\.\.\. disk full/)).length,
    ).toBeGreaterThan(0);
    expect(await outbox()).toHaveLength(0);
  });

  it('a refused write shows the spec toast for create, update and delete', async () => {
    await seed([pulledLog('Locked')]);
    const user = userEvent.setup();
    renderLogs(db, {
      write: async () => {
        throw new Error('storage is full');
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create Log' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create Project Log' }));
    await pick(user, d, 'Project', 'Harbor Tower');
    await user.type(d.getByLabelText(/^Title/), 'Will fail');
    await user.click(d.getByRole('button', { name: 'Create Log' }));
    expect((await screen.findAllByText('Failed to create project log')).length).toBeGreaterThan(0);
    await user.click(d.getByRole('button', { name: 'Cancel' }));
    await user.click(within(card('Locked')).getByRole('button', { name: 'Start Progress' }));
    expect((await screen.findAllByText('Failed to update log')).length).toBeGreaterThan(0);
    await user.click(within(card('Locked')).getByRole('button', { name: 'Delete Locked' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect((await screen.findAllByText('Failed to delete log')).length).toBeGreaterThan(0);
    expect(card('Locked')).toBeTruthy();
  });
});
