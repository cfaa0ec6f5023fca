import type { Page } from 'playwright-core';
import type { RecordListPayload, ResourceRecord } from '../../shared';
import { fetchInPage, SLOT_TIMEOUT_MS } from './slot-page';

/**
 * Waits until the page has settled: no request in flight, its heading shown, and no slot or location still
 * loading. What a person sees once the page is ready, and what an accessibility check must look at.
 */
export async function waitForSettledPage(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('h1').first().waitFor({ timeout: SLOT_TIMEOUT_MS });
  await page.waitForFunction(() => document.querySelector('.slot-loading, [aria-busy="true"]') === null, undefined, {
    timeout: SLOT_TIMEOUT_MS,
  });
}

/**
 * Waits for a resource list to show the address `expectedUrl` accepts: the router renders a new address a moment
 * after the address changes, so rows read right after the URL changed could still be the old ones.
 */
export async function waitForList(page: Page, expectedUrl: (url: URL) => boolean): Promise<void> {
  await page.waitForURL(expectedUrl);
  await page.waitForFunction(
    () =>
      document.querySelector('[data-list-address]')?.getAttribute('data-list-address') ===
        new URLSearchParams(location.search).toString() && document.querySelector('[aria-busy="true"]') === null,
  );
  await waitForSettledPage(page);
}

/** The first record of a resource in the current tenant, as the API returns it. */
export async function firstRecord(page: Page, resource: string): Promise<ResourceRecord> {
  const list = await fetchInPage<RecordListPayload>(page, `/api/resources/${resource}/records`);
  const record = list.body.records[0];
  if (list.status !== 200 || !record) throw new Error(`No ${resource} record in the current tenant (${list.status}).`);
  return record;
}

/** The element that has the keyboard focus, described the way a test can compare it. */
export async function focusedElement(page: Page): Promise<{ tag: string; text: string; name: string | null }> {
  return page.evaluate(() => {
    const element = document.activeElement ?? document.body;
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.textContent ?? '').trim().slice(0, 200),
      name: element.getAttribute('name'),
    };
  });
}

/** Whether the page scrolls sideways: content wider than the viewport. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}
