/** Spec 02 section 9: photo files per selection on the gallery screen, and for a log. */
export const MAX_PHOTOS_PER_BATCH = 10;
export const MAX_PHOTOS_PER_LOG = 5;
/** Spec 02 sections 5 and 9: the largest file taken, before compression (10 MB). */
export const MAX_PHOTO_FILE_BYTES = 10_485_760;
/** DESIGN.md section 7: the long edge of an uploaded photo, and its largest size after compression. */
export const MAX_EDGE_PX = 2560;
export const MAX_OUTPUT_BYTES = 1_000_000;
/** The long edge of the thumbnail kept on the device for galleries. */
export const THUMB_EDGE_PX = 320;
