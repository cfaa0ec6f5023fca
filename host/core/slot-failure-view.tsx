import { useEffect } from 'react';
import type { SlotFailureKind } from './slot-failure-reporter';
import { useSlotFrame } from './slot-frame';
import { useSlotRuntime } from './slot-runtime';

export interface SlotFailureViewProps {
  kind: SlotFailureKind;
  message: string;
  /** Offered in development next to the message (the error boundary's reset). */
  onRetry?: () => void;
}

/**
 * What a failed slot renders: logs the failure once (location, component, remote, error), then a placeholder
 * saying what failed in development, nothing in production. Text only; nothing from props becomes HTML.
 */
export function SlotFailureView({ kind, message, onRetry }: SlotFailureViewProps) {
  const frame = useSlotFrame();
  const { reporter, showFailures } = useSlotRuntime();
  const location = frame?.location ?? 'unknown';
  const component = frame?.component ?? 'unknown';
  const remote = frame?.remote ?? null;
  const markFailed = frame?.markFailed;

  useEffect(() => {
    reporter.report({ location, component, remote, kind, error: message });
    markFailed?.(kind);
  }, [reporter, location, component, remote, kind, message, markFailed]);

  if (!showFailures) return null;
  return (
    <div className="slot-failure" role="note" data-slot-failure={kind}>
      <strong className="slot-failure__title">
        Slot “{component}” did not render at {location}
        {remote ? ` (remote ${remote})` : ''}
      </strong>
      <span className="slot-failure__message">{message}</span>
      {onRetry && (
        <button type="button" className="button button--small button--secondary" onClick={onRetry}>
          Retry
        </button>
      )}
      <span className="slot-failure__hint">Shown in development builds only.</span>
    </div>
  );
}
