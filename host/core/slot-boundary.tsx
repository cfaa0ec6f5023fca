/**
 * What a failing slot does: the errors that say why it failed, the frame that tells a failure where it happened, and
 * the boundary that catches what the slot throws and writes the failure into the slot status. The views of the
 * status (the console log, the placeholder, the notice) take it from there; the rest of the page carries on.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { SlotFailurePlaceholder } from './slot-failure-placeholder';
import type { SlotFailureKind, SlotFrame } from './slot-status';

/** A slot's component could not be obtained (bad federated module), as opposed to failing while rendering. */
export class SlotLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotLoadError';
  }
}

/**
 * A slot cannot render, for a reason the host knows (no such component, props that do not match, a remote that is
 * unavailable): thrown where that is found out, so the boundary is the one place that records failures.
 */
export class SlotFailureError extends Error {
  constructor(
    readonly kind: SlotFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'SlotFailureError';
  }
}

/** The kind of failure an error a slot threw stands for. */
export function failureKindOf(error: Error): SlotFailureKind {
  if (error instanceof SlotFailureError) return error.kind;
  return error instanceof SlotLoadError ? 'load-error' : 'render-error';
}

interface SlotErrorBoundaryProps {
  frame: SlotFrame;
  /** A new value (another component under the slot's name) clears a caught failure: it may render now. */
  resetKey: unknown;
  children?: ReactNode;
}

interface SlotErrorBoundaryState {
  error: Error | null;
  resetKey: unknown;
}

/**
 * Catches what one slot throws (while loading or rendering) so the page and the other slots carry on, and writes
 * the failure into the slot status when it catches. A retry, or a new component under the slot's name, clears it
 * and writes "loading" again.
 */
export class SlotErrorBoundary extends Component<SlotErrorBoundaryProps, SlotErrorBoundaryState> {
  override state: SlotErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<SlotErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(
    props: SlotErrorBoundaryProps,
    state: SlotErrorBoundaryState,
  ): Partial<SlotErrorBoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo): void {
    const { frame } = this.props;
    frame.status.failed(frame.handle, frame.place, failureKindOf(error), error.message);
  }

  override componentDidUpdate(_props: SlotErrorBoundaryProps, previous: SlotErrorBoundaryState): void {
    const { frame } = this.props;
    if (previous.error === null || this.state.error !== null) return;
    // Cleared: loading again, unless the slot already said it rendered (its mark commits before this boundary).
    if (frame.status.entryOf(frame.handle)?.state === 'failed') frame.status.loading(frame.handle, frame.place);
  }

  private readonly reset = () => this.setState({ error: null });

  override render(): ReactNode {
    return this.state.error ? (
      <SlotFailurePlaceholder frame={this.props.frame} onRetry={this.reset} />
    ) : (
      this.props.children
    );
  }
}

/**
 * For `createRoot(..., { onCaughtError })`: errors a slot boundary caught are already logged once by the console
 * view of the slot status, so React's own report of them is skipped; anything else is logged as React would.
 */
export function reportCaughtError(error: unknown, info: { errorBoundary?: unknown; componentStack?: string }): void {
  if (info.errorBoundary instanceof SlotErrorBoundary) return;
  console.error(error, info.componentStack ?? '');
}
