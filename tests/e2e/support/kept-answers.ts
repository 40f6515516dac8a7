import type { Page } from '@playwright/test';

/**
 * The office screens' answers this browser keeps in IndexedDB for offline starts
 * (`web/lib/query-persist.ts`), one text per signed-in user.
 */
export function keptCaches(page: Page) {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('sitecommand-query-cache');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) return resolve([]);
          const all = db.transaction('queries').objectStore('queries').getAll();
          all.onsuccess = () => resolve(all.result.map(String));
        };
        open.onerror = () => resolve(['unreadable']);
      }),
  );
}
