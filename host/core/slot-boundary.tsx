/**
 * What a failing slot does: the error that says its component could not be obtained, the frame that tells a
 * failure where it happened, the boundary that catches what the slot throws, and the view that logs the failure
 * once and shows it in development only. The rest of the page and the other slots carry on.
 */
import { Component, createContext, useContext, useEffect, type ErrorInfo, type ReactNode } from 'react';
import type { SlotFailureKind } from './slot-failure-reporter';
import { useSlotRuntime } from './slot-runtime';

/** A slot's component could not be obtained (bad federated module), as opposed to failing while rendering. */
export class SlotLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotLoadError';
  }
}

/** Where a slot component is being rendered; read by failure views and fallback components. */
export interface SlotFrame {
  location: string;
  component: string;
  remote: string | null;
  /** Marks the slot's wrapper as failed (hidden in production); `message` says why, for the slot inspector. */
  markFailed(kind: SlotFailureKind, message: string): void;
}

export const SlotFrameContext = createContext<SlotFrame | null>(null);

export function useSlotFrame(): SlotFrame | null {
  return useContext(SlotFrameContext);
}

export interface SlotFailureViewProps {
  kind: SlotFailureKind;
  message: string;
  /** Offered in development next to the message (the error boundary's reset). */
  onRetry?: () => void;
}

/**
 * What a failed slot renders: logs the failure once (location, component, remote, error), then a placeholder
 * saying what failed when the server runs in development, nothing when it runs in production. Text only; nothing from props becomes HTML.
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
    markFailed?.(kind, message);
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
      <span className="slot-failure__hint">Shown because the server runs in development.</span>
    </div>
  );
}

interface SlotErrorBoundaryProps {
  children?: ReactNode;
}

interface SlotErrorBoundaryState {
  error: Error | null;
}

/**
 * Catches what one slot throws (while loading or rendering) so the page and the other slots carry on. The failure
 * view logs it once with the slot's location, component and remote.
 */
export class SlotErrorBoundary extends Component<SlotErrorBoundaryProps, SlotErrorBoundaryState> {
  override state: SlotErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): SlotErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  // The failure view reports the error; this override only keeps React from treating it as unhandled here.
  override componentDidCatch(_error: Error, _info: ErrorInfo): void {}

  private readonly reset = () => this.setState({ error: null });

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <SlotFailureView
        kind={error instanceof SlotLoadError ? 'load-error' : 'render-error'}
        message={error.message}
        onRetry={this.reset}
      />
    );
  }
}

/**
 * For `createRoot(..., { onCaughtError })`: errors a slot boundary caught are already logged once by the slot, so
 * React's own report of them is skipped; anything else is logged as React would.
 */
export function reportCaughtError(error: unknown, info: { errorBoundary?: unknown; componentStack?: string }): void {
  if (info.errorBoundary instanceof SlotErrorBoundary) return;
  console.error(error, info.componentStack ?? '');
}
