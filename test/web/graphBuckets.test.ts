import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/browser.js';
import { dashboardAt, graphTooltip } from '../support/dashboardAt.js';

// The graph's buckets that are not like the others (docs/dashboard.md "The graph"): the one still
// filling, and a week the range cuts short. The clock stands at Tue 9 Jan 2024, 12:05:30 UTC, in
// the service and in the browser; nothing has happened in the current hour or minute.
describe('the graph’s partial buckets', () => {
  const now = '2024-01-09T12:05:30Z';
  const site = dashboardAt(now, [
    { visitor: 'a', at: '2024-01-09 09:10:00', page: '/' },
    { visitor: 'b', at: '2024-01-09 10:20:00', page: '/' },
    { visitor: 'c', at: '2024-01-09 11:40:00', page: '/' },
    // 91 days end on Mon 8 Jan: the last week holds that one day.
    { visitor: 'd', at: '2024-01-08 10:00:00', page: '/' },
    ...['e', 'f', 'g', 'h'].map((visitor) => ({ visitor, at: '2024-01-03 10:00:00', page: '/' })),
    { visitor: 'i', at: '2023-10-11 10:00:00', page: '/' },
  ]);

  async function graph(search: string, options: { dark?: boolean; phone?: boolean } = {}): Promise<Page> {
    const page = await site.open(search, options);
    await page.locator('.graph-plot canvas').waitFor({ timeout: 15_000 });
    return page;
  }
  const plot = (page: Page) => page.locator('.graph-plot');
  const hover = (page: Page, i: number, count: number) => graphTooltip(page, i, count);

  it('dashes the hour still filling on Today, though nothing has happened in it yet', async () => {
    const page = await graph('?period=day');
    await expect.poll(() => plot(page).getAttribute('data-points'), { timeout: 15_000 }).toBe('13');
    expect(await plot(page).getAttribute('data-interval')).toBe('hour');
    expect(await plot(page).getAttribute('data-in-progress')).toBe('12');
    expect(await plot(page).getAttribute('data-dashed')).toBe('12');
    expect(await hover(page, 12, 13)).toMatch(/12:00 In progress Unique visitors 0/);
    expect(await hover(page, 11, 13)).toMatch(/11:00 Unique visitors 1/);
    await page.screenshot({ path: screenshotPath('graph-today-in-progress') });
    await page.context().close();
  });

  it('dashes the minute still filling in Realtime instead of dropping it to a final 0', async () => {
    const page = await graph('?period=realtime');
    // 11:35 to 12:05: thirty-one minutes, the last one filling.
    await expect.poll(() => plot(page).getAttribute('data-points'), { timeout: 15_000 }).toBe('31');
    expect(await plot(page).getAttribute('data-interval')).toBe('minute');
    expect(await plot(page).getAttribute('data-in-progress')).toBe('30');
    expect(await plot(page).getAttribute('data-dashed')).toBe('30');
    await page.screenshot({ path: screenshotPath('graph-realtime-in-progress') });
    await page.context().close();
  });

  it('puts weekly ticks on the weeks and dashes a week the range cuts short', async () => {
    for (const [dark, phone] of [
      [false, false],
      [true, false],
      [false, true],
    ] as const) {
      const page = await graph('?period=91d&interval=week', { dark, phone });
      // Tue 10 Oct 2023 to Mon 8 Jan 2024: a first week of six days, twelve whole ones, a last of one day.
      await expect.poll(() => plot(page).getAttribute('data-points'), { timeout: 15_000 }).toBe('14');
      expect(await plot(page).getAttribute('data-dashed')).toBe('0 13');
      const ticks = (await plot(page).getAttribute('data-x-ticks'))?.split(' ') ?? [];
      expect(ticks.length).toBeGreaterThan(phone ? 2 : 5);
      // Every tick is a bucket's own first day: the range's first, then Mondays.
      expect(ticks[0]).toBe('2023-10-10');
      for (const tick of ticks.slice(1)) expect(new Date(`${tick}T00:00:00Z`).getUTCDay()).toBe(1);
      await expect.poll(() => hover(page, 13, 14), { timeout: 15_000 }).toMatch(/^Week of Jan 8, 2024 Partial week: 1 day Unique visitors 1/);
      expect(await hover(page, 0, 14)).toContain('Partial week: 6 days');
      expect(await hover(page, 12, 14)).not.toContain('Partial');
      await hover(page, 13, 14);
      await page.locator('.graph').screenshot({ path: screenshotPath(`graph-weeks-partial-${dark ? 'dark' : 'light'}-${phone ? 'phone' : 'desktop'}`) });
      await page.context().close();
    }
  });
});
