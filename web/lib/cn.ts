/** Joins class names, skipping falsy parts (a tiny stand-in for clsx; later classes win by source order). */
export function cn(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(' ');
}
