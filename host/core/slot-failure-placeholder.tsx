import { useSyncExternalStore } from 'react';
import type { SlotFrame } from './slot-status';
import { useSlotRuntime } from './slot-runtime';

/**
 * A view of the slot status: what a failed slot shows in its place. When the server runs in development (and in the
 * placements editor's preview), a placeholder saying what failed (location, component, remote, message); in
 * production, nothing. Text only; nothing from props becomes HTML.
 */
export function SlotFailurePlaceholder({ frame, onRetry }: { frame: SlotFrame; onRetry?: () => void }) {
  const { showFailures, failureHint } = useSlotRuntime();
  const { status, handle } = frame;
  const read = () => status.entryOf(handle);
  const slot = useSyncExternalStore(status.subscribe, read, read);
  if (!showFailures || slot?.state !== 'failed' || slot.failure === null) return null;
  const { location, component, remote, failure } = slot;
  return (
    <div className="slot-failure" role="note" data-slot-failure={failure.kind}>
      <strong className="slot-failure__title">
        Slot “{component}” did not render at {location}
        {remote ? ` (remote ${remote})` : ''}
      </strong>
      <span className="slot-failure__message">{failure.message}</span>
      {onRetry && (
        <button type="button" className="button button--small button--secondary" onClick={onRetry}>
          Retry
        </button>
      )}
      <span className="slot-failure__hint">{failureHint}</span>
    </div>
  );
}
