import type { Locator, Page } from 'playwright-core';
import type { SlotLocationValue } from '../../shared';

/** How long a slot may take to appear (a failing remote must not hold the page longer than this). */
export const SLOT_TIMEOUT_MS = 10_000;

/** The wrapper of a rendered location. */
export function locationSelector(location: SlotLocationValue): string {
  return `[data-slot-location="${location}"]`;
}

/** A rendered slot, anywhere or inside one location. */
export function componentSelector(component: string, location?: SlotLocationValue): string {
  const slot = `[data-slot-component="${component}"]`;
  return location ? `${locationSelector(location)} ${slot}` : slot;
}

export function slotAt(page: Page, location: SlotLocationValue, component: string): Locator {
  return page.locator(componentSelector(component, location));
}

/**
 * Waits until the slot's wrapper shows the component itself (not the Suspense placeholder): visible, with text, and
 * with `hasText` in it when given.
 */
export async function waitForSlot(
  page: Page,
  location: SlotLocationValue,
  component: string,
  options: { hasText?: string | RegExp; timeout?: number } = {},
): Promise<Locator> {
  const all = slotAt(page, location, component);
  const slot = (options.hasText === undefined ? all : all.filter({ hasText: options.hasText })).first();
  await slot.waitFor({ state: 'visible', timeout: options.timeout ?? SLOT_TIMEOUT_MS });
  await page.waitForFunction(
    (element) =>
      element !== null && (element.textContent ?? '').trim() !== '' && !element.querySelector('.slot-loading'),
    await slot.elementHandle(),
    { timeout: options.timeout ?? SLOT_TIMEOUT_MS },
  );
  return slot;
}

/**
 * The components rendered at a location, in DOM order. `nested: false` (default) lists only the location's own
 * slots, not the slots rendered as another slot's content.
 */
export function componentsAt(
  page: Page,
  location: SlotLocationValue,
  options: { nested?: boolean } = {},
): Promise<string[]> {
  return page.evaluate(
    ({ selector, nested }) => {
      const wrapper = document.querySelector(selector);
      if (!wrapper) return [];
      return [...wrapper.querySelectorAll<HTMLElement>('[data-slot-component]')]
        .filter(
          (element) =>
            nested || element.parentElement?.closest('[data-slot-component], [data-slot-location]') === wrapper,
        )
        .map((element) => element.dataset.slotComponent ?? '');
    },
    { selector: locationSelector(location), nested: options.nested ?? false },
  );
}

/** Every location wrapper present in the page, in DOM order. */
export function renderedLocations(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-slot-location]')].map(
      (element) => element.dataset.slotLocation ?? '',
    ),
  );
}

/**
 * For each selector, the index in document order of its first match, or -1 when it matches nothing. Lets a test
 * assert "A comes before B" on elements that are not siblings.
 */
export function documentOrder(page: Page, selectors: readonly string[]): Promise<number[]> {
  return page.evaluate(
    (list) => {
      const elements = list.map((selector) => document.querySelector(selector));
      const present = elements.filter((element): element is Element => element !== null);
      const sorted = [...present].sort((a, b) =>
        a === b ? 0 : a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
      );
      return elements.map((element) => (element ? sorted.indexOf(element) : -1));
    },
    [...selectors],
  );
}

export interface PageJson<T> {
  status: number;
  body: T;
}

/** A JSON request made by the page itself, with its cookies: what the host's own code would get. */
export function fetchInPage<T>(
  page: Page,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<PageJson<T>> {
  return page.evaluate(
    async ({ path: url, method, body }) => {
      const response = await fetch(url, {
        method,
        credentials: 'same-origin',
        cache: 'no-store',
        headers:
          body === undefined
            ? { Accept: 'application/json' }
            : { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
    },
    { path, method: init.method ?? 'GET', body: init.body },
  );
}
