import type { Locator } from 'playwright-core';

/** The element's node in Chromium's accessibility tree: what a screen reader goes by. */
async function accessibleNode(locator: Locator) {
  const handle = await locator.elementHandle();
  if (handle === null) throw new Error(`No element for ${String(locator)}.`);
  return locator.page().accessibility.snapshot({ root: handle, interestingOnly: false });
}

/** The name Chromium gives the element: what a screen reader says for it, before its role and state. */
export async function nameOf(locator: Locator): Promise<string> {
  return (await accessibleNode(locator))?.name ?? '';
}

/** The accessible description Chromium gives the element (what a screen reader says after its name and role). */
export async function descriptionOf(locator: Locator): Promise<string> {
  return (await accessibleNode(locator))?.description ?? '';
}
