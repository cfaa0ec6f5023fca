import type { Page } from 'playwright-core';

/**
 * The props React rendered a slot component with, read from React's fiber tree in the page: starting at the slot's
 * wrapper element (`selector`), the first component below it whose props contain `propName`. Functions are
 * reported as the string `"[function]"` so a test can see they are there. Works on production builds: React keeps
 * the fiber on every DOM node it creates (`__reactFiber$<id>`).
 */
export function reactPropsBelow(
  page: Page,
  selector: string,
  propName: string,
): Promise<Record<string, unknown> | null> {
  return page.evaluate(
    ({ selector: wrapperSelector, propName: wanted }) => {
      type Fiber = {
        memoizedProps?: unknown;
        child?: Fiber | null;
        sibling?: Fiber | null;
        return?: Fiber | null;
        alternate?: Fiber | null;
        stateNode?: unknown;
      };
      const element = document.querySelector(wrapperSelector);
      if (!element) return null;
      const key = Object.keys(element).find((name) => name.startsWith('__reactFiber$'));
      if (!key) return null;
      const cached = (element as unknown as Record<string, Fiber>)[key];
      // The node keeps the fiber it was created with; after updates the live tree may be its alternate. Both
      // subtrees are searched; a hit whose ancestors lead to the root React currently shows is preferred.
      const isLive = (fiber: Fiber): boolean => {
        let top = fiber;
        while (top.return) top = top.return;
        return (top.stateNode as { current?: Fiber } | null | undefined)?.current === top;
      };
      const search = (start: Fiber | null | undefined): Fiber | null => {
        const queue: Fiber[] = start?.child ? [start.child] : [];
        while (queue.length > 0) {
          const fiber = queue.shift() as Fiber;
          const props = fiber.memoizedProps;
          if (props !== null && typeof props === 'object' && wanted in props) return fiber;
          // Children and siblings of nodes below the wrapper stay inside the wrapper's subtree.
          if (fiber.child) queue.push(fiber.child);
          if (fiber.sibling) queue.push(fiber.sibling);
        }
        return null;
      };
      const hits = [search(cached), search(cached?.alternate)].filter((hit): hit is Fiber => hit !== null);
      const hit = hits.find(isLive) ?? hits[0];
      if (!hit) return null;
      return JSON.parse(
        JSON.stringify(hit.memoizedProps, (name, value: unknown) =>
          typeof value === 'function' ? '[function]' : name === 'children' ? undefined : value,
        ),
      ) as Record<string, unknown>;
    },
    { selector, propName },
  );
}
