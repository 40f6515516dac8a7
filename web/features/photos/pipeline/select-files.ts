import { MAX_PHOTO_FILE_BYTES } from './limits.ts';

export interface FileSelection {
  /** The files kept, in the order picked. */
  accepted: File[];
  /** Files left out, each with why, so the picker can say so. */
  skipped: { name: string; reason: 'not-image' | 'too-large' | 'over-limit' }[];
}

/**
 * Spec 02 section 5: only images, each at most 10 MB before compression, at most `max` of them (the rest in
 * pick order are left out). The spec drops the others silently; we keep them listed so a user knows why a
 * photo they picked is missing.
 */
export function selectPhotoFiles(files: Iterable<File>, max: number): FileSelection {
  const accepted: File[] = [];
  const skipped: FileSelection['skipped'] = [];
  for (const file of files) {
    if (!file.type.startsWith('image/')) skipped.push({ name: file.name, reason: 'not-image' });
    else if (file.size > MAX_PHOTO_FILE_BYTES) skipped.push({ name: file.name, reason: 'too-large' });
    else if (accepted.length >= max) skipped.push({ name: file.name, reason: 'over-limit' });
    else accepted.push(file);
  }
  return { accepted, skipped };
}

/** One line naming the files left out, or null. */
export function describeSkipped(skipped: FileSelection['skipped'], max: number): string | null {
  if (skipped.length === 0) return null;
  const parts: string[] = [];
  const of = (reason: string) => skipped.filter((s) => s.reason === reason).map((s) => s.name);
  const notImage = of('not-image');
  const tooLarge = of('too-large');
  const over = of('over-limit');
  if (notImage.length) parts.push(`not an image: ${notImage.join(', ')}`);
  if (tooLarge.length) parts.push(`over 10MB: ${tooLarge.join(', ')}`);
  if (over.length) parts.push(`more than ${max} photos: ${over.join(', ')}`);
  return `Skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'} (${parts.join('; ')})`;
}
