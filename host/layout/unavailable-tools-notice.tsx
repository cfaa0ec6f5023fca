import { useEffect, useSyncExternalStore } from 'react';
import { HOST_TOOLS_EVENT, HOST_TOOLS_UNAVAILABLE_ATTRIBUTE, type HostToolsDetail } from '../../shared';
import { useSlotRuntime, type FailedSlot } from '../core';

/** What staff read when some slots on the page failed: no internal names, and what to do about it. */
export const UNAVAILABLE_TOOLS_MESSAGE =
  'Some tools on this page are unavailable right now. Everything else works; reload the page later to try again.';

function describe(slot: FailedSlot): string {
  return `${slot.component}${slot.remote ? ` (${slot.remote})` : ''} at ${slot.location}: ${slot.failure.kind}`;
}

/**
 * A quiet notice while some slots on screen failed (a remote that is off, unreachable or too slow, a component
 * that broke): failed slots show nothing in production, so without it tools vanish without a word. A polite live
 * region, present while empty so that screen readers announce the notice when it appears. Development builds add
 * which components failed; production names nothing internal. It also tells the remotes (HOST_TOOLS_EVENT), so that
 * a status line stops saying that all is well.
 */
export function UnavailableToolsNotice() {
  const { failedSlots, showFailures } = useSlotRuntime();
  const failed = useSyncExternalStore(failedSlots.subscribe, failedSlots.snapshot, failedSlots.snapshot);
  const unavailable = failed.length > 0;
  useEffect(() => announceToolsState(unavailable), [unavailable]);
  return (
    <div className="tools-notice" role="status">
      {failed.length > 0 && (
        <p className="notice notice--warning tools-notice__text">
          {UNAVAILABLE_TOOLS_MESSAGE}
          {showFailures && <span className="tools-notice__details"> {failed.map(describe).join('; ')}</span>}
        </p>
      )}
    </div>
  );
}

/** Marks `<html>` and tells the remotes when it changes (see HOST_TOOLS_UNAVAILABLE_ATTRIBUTE in shared/wire.ts). */
function announceToolsState(unavailable: boolean): void {
  const root = document.documentElement;
  if (root.hasAttribute(HOST_TOOLS_UNAVAILABLE_ATTRIBUTE) === unavailable) return;
  if (unavailable) root.setAttribute(HOST_TOOLS_UNAVAILABLE_ATTRIBUTE, 'true');
  else root.removeAttribute(HOST_TOOLS_UNAVAILABLE_ATTRIBUTE);
  const detail: HostToolsDetail = { unavailable };
  window.dispatchEvent(new CustomEvent(HOST_TOOLS_EVENT, { detail }));
}
