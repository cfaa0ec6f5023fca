import type { KeyboardEvent } from 'react';

/** What Tab can reach inside a dialog (a disabled control cannot; an `aria-disabled` one can, and says why). */
const TABBABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), ' +
  'textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

function tabbableIn(dialog: HTMLElement): HTMLElement[] {
  return Array.from(dialog.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (element) => element.getClientRects().length > 0,
  );
}

/**
 * The dialog's onKeyDown for Tab: from its last control Tab goes round to its first, and Shift+Tab from its first to
 * its last. A modal `<dialog>` makes the page behind inert, but Chromium still lets Tab leave the dialog for the
 * document itself (the focus on nothing, the next Tab in the page); the session warning is not modal at all. Keys
 * typed outside the dialog (a text box kept by the session warning) never reach it: the page keeps its own Tab order.
 */
export function keepTabInside(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const dialog = event.currentTarget;
  const tabbable = tabbableIn(dialog);
  const first = tabbable[0];
  const last = tabbable[tabbable.length - 1];
  if (first === undefined || last === undefined) return;
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && tabbable.includes(active);
  if (event.shiftKey && (!inside || active === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Gives the focus back to what opened a dialog, once it has closed, unless the focus is already elsewhere on the page
 * (the browser restores it itself; an onClose, or a click elsewhere, may have placed it): only focus left in the
 * closed dialog or on nothing moves. An opener since removed or disabled is skipped: the page's own focus (a status,
 * a heading) comes after.
 */
export function returnFocus(dialog: HTMLElement | null, opener: HTMLElement | null): void {
  const active = document.activeElement;
  const lost = active === null || active === document.body || (dialog !== null && dialog.contains(active));
  if (!lost || opener === null || !opener.isConnected || opener.matches(':disabled')) return;
  opener.focus();
}
