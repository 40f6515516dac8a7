import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { signInByApi } from './watch-page.ts';

/**
 * A task of the user signed in on `page` (through the API here), due today in the company's zone and made
 * by the manager: a spec that needs an open task of someone's day brings its own. Browser specs share one
 * seeded server, and by the time a late spec runs, earlier ones have ticked, moved or deleted the seeded
 * tasks it would otherwise find (in CI's full run overlap.spec and reflow.spec found none left).
 */
export async function ownTaskDueToday(
  page: Page,
  email: string,
  title: string,
  priority: 'low' | 'medium' | 'high' | 'critical' = 'high',
): Promise<void> {
  await signInByApi(page, email);
  const me = (await (await page.request.get('/api/auth/user')).json()) as {
    id: string;
    companyTimeZone: string;
  };
  const baseURL = test.info().project.use.baseURL!;
  const manager = await playwrightRequest.newContext({ baseURL });
  try {
    await signInByApi(manager, 'manager@summit.test');
    const projects = (await (await manager.get('/api/projects')).json()) as { id: string; status: string }[];
    const project = projects.find((p) => p.status === 'active') ?? projects[0]!;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: me.companyTimeZone }).format(new Date());
    const made = await manager.post('/api/tasks', {
      headers: { origin: new URL(baseURL).origin },
      data: { title, projectId: project.id, assigneeId: me.id, dueDate: today, priority },
    });
    expect(made.status(), await made.text()).toBe(201);
  } finally {
    await manager.dispose();
  }
}
