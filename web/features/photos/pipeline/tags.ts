/** Spec 02 section 5: the tag text is split on commas, trimmed, empty items dropped (and repeats once). */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}
