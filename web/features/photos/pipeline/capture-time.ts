import exifr from 'exifr';

const EXIF_HEAD_BYTES = 256 * 1024;

/**
 * When the photo was taken, from its EXIF (DateTimeOriginal, else CreateDate), as ISO 8601 UTC, or null
 * when the file has none. EXIF times carry no zone; they are read as the device's local time, which is
 * where the camera was for a photo taken on site.
 */
export async function readCaptureTime(file: Blob): Promise<string | null> {
  try {
    // EXIF sits in the APP1 segment at the start of a JPEG (at most 64 KiB); HEIC and PNG keep it early too.
    const head = await file.slice(0, EXIF_HEAD_BYTES).arrayBuffer();
    const tags = (await exifr.parse(head, { pick: ['DateTimeOriginal', 'CreateDate'] })) as
      { DateTimeOriginal?: unknown; CreateDate?: unknown } | undefined;
    const when = tags?.DateTimeOriginal ?? tags?.CreateDate;
    return when instanceof Date && !Number.isNaN(when.getTime()) ? when.toISOString() : null;
  } catch {
    // A file without readable EXIF simply has no capture time.
    return null;
  }
}
