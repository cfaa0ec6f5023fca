import type { SlotComponent } from './component-registry';
import { SlotFailureView } from './slot-boundary';
import type { FallbackRequest } from '../loader/reliability-plugin';

/** The module a failed remote module is replaced with. */
export interface FallbackModule {
  default: SlotComponent;
  [component: string]: SlotComponent;
}

/**
 * A module whose component renders the slot failure view (a placeholder in development, nothing in production)
 * wherever the unavailable component was asked for, so one failed remote never breaks a page.
 */
export function createFallbackModule(request: FallbackRequest): FallbackModule {
  // A quarantined remote is unavailable as a whole; otherwise only this module failed to load.
  const kind = request.quarantined ? 'remote-unavailable' : 'load-error';
  function RemoteFallback() {
    return <SlotFailureView kind={kind} message={request.error} />;
  }
  RemoteFallback.displayName = `RemoteFallback(${request.remote}/${request.component})`;
  return { default: RemoteFallback, [request.component]: RemoteFallback };
}
