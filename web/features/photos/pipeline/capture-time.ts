import exifr from 'exifr';

/**
 * When the photo was taken, from its EXIF (DateTimeOriginal, else CreateDate), as ISO 8601 UTC, or null
 * when the file has none. EXIF times carry no zone; they are read as the device's local time, which is
 * where the camera was for a photo taken on site.
 */
export async function readCaptureTime(file: Blob): Promise<string | null> {
  try {
    const tags = (await exifr.parse(file, { pick: ['DateTimeOriginal', 'CreateDate'] })) as
      { DateTimeOriginal?: unknown; CreateDate?: unknown } | undefined;
    const when = tags?.DateTimeOriginal ?? tags?.CreateDate;
    return when instanceof Date && !Number.isNaN(when.getTime()) ? when.toISOString() : null;
  } catch {
    // A file without readable EXIF simply has no capture time.
    return null;
  }
}
