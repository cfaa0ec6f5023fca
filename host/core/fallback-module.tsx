import type { SlotComponent } from './component-registry';
import { SlotFailureError } from './slot-boundary';
import type { FallbackRequest } from '../loader/reliability-plugin';

/** The module a failed remote module is replaced with. */
export interface FallbackModule {
  default: SlotComponent;
  [component: string]: SlotComponent;
}

/**
 * A module whose component fails the slot it renders in, with the reason (the slot's boundary records it: a
 * placeholder in development, nothing in production) wherever the unavailable component was asked for, so one
 * failed remote never breaks a page.
 */
export function createFallbackModule(request: FallbackRequest): FallbackModule {
  // A quarantined remote is unavailable as a whole; otherwise only this module failed to load.
  const kind = request.quarantined ? 'remote-unavailable' : 'load-error';
  function RemoteFallback(): never {
    throw new SlotFailureError(kind, request.error);
  }
  RemoteFallback.displayName = `RemoteFallback(${request.remote}/${request.component})`;
  return { default: RemoteFallback, [request.component]: RemoteFallback };
}
