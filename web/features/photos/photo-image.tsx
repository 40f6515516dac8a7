/**
 * Shows an image this app serves (`/api/photos/{id}/file` or `/api/objects/image/{key}`, see
 * `LogImageUrl`): `thumb` for grids and cards, `full` for a details view.
 *
 * STUB: the photo pipeline (issue 11) replaces this body so the image comes from the device (the local
 * thumbnail or blob) when it is there, offline too, and a missing image shows the grey 'Photo' placeholder.
 */
export interface PhotoImageProps {
  src: string;
  alt: string;
  variant: 'thumb' | 'full';
  className?: string;
}

export function PhotoImage({ src, alt, className }: PhotoImageProps) {
  return <img src={src} alt={alt} className={className} loading="lazy" />;
}
