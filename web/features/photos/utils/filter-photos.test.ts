import { describe, expect, it } from 'vitest';
import type { PhotoRow, ProjectLogRow } from '#sync/db.ts';
import { countText, filterPhotos, logsWithImages, NO_FILTER, tagCounts } from './filter-photos.ts';

const photo = (id: string, extra: Partial<PhotoRow>): PhotoRow => ({
  id,
  version: 1,
  projectId: 'p1',
  tags: [],
  description: null,
  originalName: null,
  filename: `${id}.jpg`,
  ...extra,
});

const photos = [
  photo('a', { description: 'Rebar before pour', tags: ['rebar', 'level 3'], originalName: 'IMG_1.jpg' }),
  photo('b', { description: null, tags: ['crane'], originalName: 'north-crane.JPG', projectId: 'p2' }),
  photo('c', { description: 'Formwork', tags: ['rebar'], originalName: 'IMG_3.jpg' }),
];

describe('photo gallery filters (spec 02 section 2)', () => {
  it('searches description, original file name and tags, ignoring case', () => {
    expect(filterPhotos(photos, { ...NO_FILTER, search: 'REBAR' }).map((p) => p.id)).toEqual(['a', 'c']);
    expect(filterPhotos(photos, { ...NO_FILTER, search: 'north-crane' }).map((p) => p.id)).toEqual(['b']);
    expect(filterPhotos(photos, { ...NO_FILTER, search: 'level 3' }).map((p) => p.id)).toEqual(['a']);
    expect(filterPhotos(photos, { ...NO_FILTER, search: 'nothing like it' })).toEqual([]);
  });

  it('narrows by the project, tag or log of the active tab only', () => {
    expect(filterPhotos(photos, { ...NO_FILTER, tab: 'project', projectId: 'p2' }).map((p) => p.id)).toEqual([
      'b',
    ]);
    expect(filterPhotos(photos, { ...NO_FILTER, tab: 'tag', tag: 'rebar' }).map((p) => p.id)).toEqual([
      'a',
      'c',
    ]);
    // A choice on another tab does not filter.
    expect(filterPhotos(photos, { ...NO_FILTER, tab: 'all', projectId: 'p2' })).toHaveLength(3);
    const log: ProjectLogRow = {
      id: 'l1',
      version: 1,
      title: 'Pour day',
      images: ['/api/photos/a/file', '/api/objects/image/c.jpg'],
    };
    expect(filterPhotos(photos, { ...NO_FILTER, tab: 'log', logId: 'l1' }, [log]).map((p) => p.id)).toEqual([
      'a',
      'c',
    ]);
  });

  it('counts photos per tag, most used first', () => {
    expect(tagCounts(photos)).toEqual([
      { tag: 'rebar', count: 2 },
      { tag: 'crane', count: 1 },
      { tag: 'level 3', count: 1 },
    ]);
  });

  it("reads 'X of Y photos' with a '(filtered by ...)' suffix only when something filters", () => {
    expect(countText(3, 3, NO_FILTER)).toBe('3 of 3 photos');
    expect(countText(2, 3, { ...NO_FILTER, tab: 'tag', tag: 'rebar' })).toBe(
      '2 of 3 photos (filtered by tag: rebar)',
    );
    expect(
      countText(
        1,
        3,
        { ...NO_FILTER, tab: 'project', projectId: 'p2', search: 'crane' },
        { project: 'Depot' },
      ),
    ).toBe('1 of 3 photos (filtered by project: Depot, search: "crane")');
  });

  it('offers only logs that have images on the Log tab', () => {
    const logs: ProjectLogRow[] = [
      { id: 'l1', version: 1, images: ['/api/photos/a/file'] },
      { id: 'l2', version: 1, images: [] },
      { id: 'l3', version: 1 },
    ];
    expect(logsWithImages(logs).map((l) => l.id)).toEqual(['l1']);
  });
});
