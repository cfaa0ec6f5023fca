/** Slots expected on a page: location -> component names, in order. */
export type ExpectedSlots = Record<string, string[]>;

/** Name of the page global where the probe records its time (ms since navigation start). */
export const READY_GLOBAL = '__benchSlotsReadyAt';

/**
 * A script for `page.addInitScript`, run before any of the page's own: it watches the DOM and records
 * `performance.now()` (milliseconds since navigation start) the first time every expected slot is rendered: its
 * `[data-slot-component]` element sits in its `[data-slot-location]` wrapper, has not failed, is no longer
 * suspended (no `.slot-loading` fallback inside) and holds the component's own elements.
 *
 * Plain JavaScript in a string: a function handed to Playwright would be serialised from the transpiled source,
 * which may reference helpers that do not exist in the page.
 */
export function slotsReadyProbe(expected: ExpectedSlots): string {
  return `(() => {
  const expected = ${JSON.stringify(expected)};
  const rendered = (element) =>
    !element.hasAttribute('data-slot-failed') &&
    element.querySelector('.slot-loading') === null &&
    element.children.length > 0;
  const complete = () => {
    for (const [location, components] of Object.entries(expected)) {
      const wrapper = document.querySelector('[data-slot-location="' + location + '"]');
      if (!wrapper) return false;
      const items = Array.from(wrapper.children).filter((child) => child.hasAttribute('data-slot-component'));
      if (items.length !== components.length) return false;
      for (let index = 0; index < components.length; index += 1) {
        const item = items[index];
        if (item.getAttribute('data-slot-component') !== components[index] || !rendered(item)) return false;
      }
    }
    return true;
  };
  const check = () => {
    if (window.${READY_GLOBAL} !== undefined || !complete()) return;
    window.${READY_GLOBAL} = performance.now();
    observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;
}
