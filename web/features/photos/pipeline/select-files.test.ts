import { describe, expect, it } from 'vitest';
import { describeSkipped, selectPhotoFiles } from './select-files.ts';
import { parseTags } from './tags.ts';

const file = (name: string, type: string, size = 1000) => new File([new Uint8Array(size)], name, { type });

describe('picking photos (spec 02 sections 5 and 9)', () => {
  it('keeps only images of at most 10485760 bytes, and at most the batch size', () => {
    const picked = [
      file('a.jpg', 'image/jpeg'),
      file('notes.pdf', 'application/pdf'),
      file('huge.jpg', 'image/jpeg', 10_485_761),
      file('edge.jpg', 'image/jpeg', 10_485_760),
      ...Array.from({ length: 10 }, (_, i) => file(`more-${i}.png`, 'image/png')),
    ];
    const { accepted, skipped } = selectPhotoFiles(picked, 10);
    expect(accepted.map((f) => f.name)).toEqual([
      'a.jpg',
      'edge.jpg',
      ...Array.from({ length: 8 }, (_, i) => `more-${i}.png`),
    ]);
    expect(skipped).toEqual([
      { name: 'notes.pdf', reason: 'not-image' },
      { name: 'huge.jpg', reason: 'too-large' },
      { name: 'more-8.png', reason: 'over-limit' },
      { name: 'more-9.png', reason: 'over-limit' },
    ]);
    expect(describeSkipped(skipped, 10)).toBe(
      'Skipped 4 files (not an image: notes.pdf; over 10MB: huge.jpg; more than 10 photos: more-8.png, more-9.png)',
    );
  });

  it('allows 5 for a log', () => {
    const picked = Array.from({ length: 7 }, (_, i) => file(`${i}.jpg`, 'image/jpeg'));
    expect(selectPhotoFiles(picked, 5).accepted).toHaveLength(5);
  });

  it('splits tags on commas, trimmed, without empty items', () => {
    expect(parseTags(' concrete, level 3, , pour,concrete ')).toEqual(['concrete', 'level 3', 'pour']);
    expect(parseTags('')).toEqual([]);
  });
});
