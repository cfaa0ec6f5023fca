import { Component, type ErrorInfo, type ReactNode } from 'react';
import { SlotFailureView } from './slot-failure-view';
import { SlotLoadError } from './slot-load-error';

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
