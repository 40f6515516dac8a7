import { validate, version } from 'uuid';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newId } from './ids.ts';

/** The Unix milliseconds in the first 48 bits of a UUIDv7 (RFC 9562 section 5.7). */
const msOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

afterEach(() => vi.restoreAllMocks());

describe('newId', () => {
  it('makes RFC 9562 version-7 UUIDs, lowercase, with the RFC variant', () => {
    for (let i = 0; i < 2000; i++) {
      const id = newId();
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('never repeats an id across many refills of its random pool', () => {
    const ids = Array.from({ length: 100_000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries the time it was made in its first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(msOf(id)).toBeGreaterThanOrEqual(before);
    expect(msOf(id)).toBeLessThanOrEqual(after);
  });

  it('sorts in the order the ids were made, also within one millisecond', () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2031, 0, 1));
    const ids = Array.from({ length: 5000 }, newId);
    expect(new Set(ids.map(msOf)).size).toBe(1);
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps sorting forward when the clock steps back', () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2032, 0, 1, 12));
    const first = newId();
    now.mockReturnValue(Date.UTC(2032, 0, 1, 11));
    const second = newId();
    expect(second > first).toBe(true);
    expect(new Set([first, second]).size).toBe(2);
  });

  it('draws fresh random bits for every id (not a counter alone)', () => {
    // Ids made in different milliseconds differ in their last 32 bits, which only the random source sets.
    const now = vi.spyOn(Date, 'now');
    const tails = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      now.mockReturnValue(Date.UTC(2033, 0, 1) + i);
      tails.add(newId().slice(-8));
    }
    expect(tails.size).toBeGreaterThan(990);
  });
});
