import { HOST_MESSAGES } from '../loader/messages';
import type { SlotFailureKind, SlotStatus } from './slot-status';

/** The structured record logged once per failing slot. */
export interface SlotFailure {
  location: string;
  component: string;
  /** The remote that provides the component, when known. */
  remote: string | null;
  kind: SlotFailureKind;
  /** The error message. */
  error: string;
}

export type SlotFailureLogger = (message: string, failure: SlotFailure) => void;

const consoleLogger: SlotFailureLogger = (message, failure) => console.error(message, failure);

/**
 * A view of the slot status: logs each distinct failure once for the life of the page (location, component,
 * remote, kind, error); re-renders, remounts on navigation and StrictMode's double mounts do not repeat it. Returns
 * what stops logging.
 */
export function logSlotFailures(status: SlotStatus, log: SlotFailureLogger = consoleLogger): () => void {
  const seen = new Set<string>();
  return status.onTransition(({ slot }) => {
    if (slot.state !== 'failed' || slot.failure === null) return;
    const failure: SlotFailure = {
      location: slot.location,
      component: slot.component,
      remote: slot.remote,
      kind: slot.failure.kind,
      error: slot.failure.message,
    };
    const key = JSON.stringify([failure.location, failure.component, failure.remote, failure.kind, failure.error]);
    if (seen.has(key)) return;
    seen.add(key);
    log(HOST_MESSAGES.slotFailureLog, failure);
  });
}
