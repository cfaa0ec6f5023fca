import { HOST_MESSAGES } from '../loader/messages';

/** Why a slot did not render. */
export type SlotFailureKind =
  | 'unknown-component'
  | 'not-a-form-component'
  | 'remote-unavailable'
  | 'load-error'
  | 'render-error'
  /** Development only: the slot's props do not match its component's schema (checked before rendering). */
  | 'props-invalid';

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

export interface SlotFailureReporter {
  report(failure: SlotFailure): void;
}

export type SlotFailureLogger = (message: string, failure: SlotFailure) => void;

const consoleLogger: SlotFailureLogger = (message, failure) => console.error(message, failure);

/**
 * Logs each distinct failure once for the life of the page: re-renders, remounts on navigation and StrictMode's
 * double effects do not repeat it.
 */
export function createSlotFailureReporter(log: SlotFailureLogger = consoleLogger): SlotFailureReporter {
  const seen = new Set<string>();
  return {
    report(failure) {
      const key = JSON.stringify([failure.location, failure.component, failure.remote, failure.kind, failure.error]);
      if (seen.has(key)) return;
      seen.add(key);
      log(HOST_MESSAGES.slotFailureLog, { ...failure });
    },
  };
}
