import { createContext, useContext } from 'react';
import type { SlotFailureKind } from './slot-failure-reporter';

/** Where a slot component is being rendered; read by failure views and fallback components. */
export interface SlotFrame {
  location: string;
  component: string;
  remote: string | null;
  /** Marks the slot's wrapper as failed (hidden in production). */
  markFailed(kind: SlotFailureKind): void;
}

export const SlotFrameContext = createContext<SlotFrame | null>(null);

export function useSlotFrame(): SlotFrame | null {
  return useContext(SlotFrameContext);
}
