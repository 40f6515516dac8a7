/** Spec 02 section 3: the categories a task may have, as chips and badges show them. */
export const CATEGORY_WORDS: Record<string, string> = {
  project: 'Project',
  administrative: 'Administrative',
  general: 'General',
  subcontractor: 'Subcontractor',
};

export const categoryWord = (c: string | null | undefined): string => (c && CATEGORY_WORDS[c]) || 'General';
