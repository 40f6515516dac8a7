import { describe, expect, it } from 'vitest';
import { isSetField, mergeSetEdit } from './set-fields.ts';

describe('mergeSetEdit', () => {
  it('[W20] with nobody else’s change, the device’s list is the result as sent, order included', () => {
    expect(mergeSetEdit(['a', 'b'], ['a', 'b'], ['b', 'c', 'a'])).toEqual(['b', 'c', 'a']);
  });

  it('[W20] adds what the device added after the current list, in the device’s order', () => {
    expect(mergeSetEdit(['a', 'x'], ['a'], ['a', 'c', 'b'])).toEqual(['a', 'x', 'c', 'b']);
  });

  it('[W20] removes what the device removed and keeps what it never had', () => {
    expect(mergeSetEdit(['a', 'b', 'x'], ['a', 'b'], ['b'])).toEqual(['b', 'x']);
  });

  it('[W20] keeps out what someone else removed, though the device still listed it', () => {
    expect(mergeSetEdit(['a'], ['a', 'b'], ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('[W20] an item both added appears once', () => {
    expect(mergeSetEdit(['a', 'c'], ['a'], ['a', 'c', 'd', 'd'])).toEqual(['a', 'c', 'd']);
  });

  it('[W20] a log’s images are the one set field', () => {
    expect(isSetField('project_logs', 'images')).toBe(true);
    expect(isSetField('project_logs', 'title')).toBe(false);
    expect(isSetField('tasks', 'images')).toBe(false);
  });
});
