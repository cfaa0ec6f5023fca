import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { HOST_MESSAGES } from '../loader/messages';
import type { Session } from '../loader/session-store';
import type { SlotData, SlotSource } from '../loader/slot-source';

const SlotSourceContext = createContext<SlotSource | null>(null);

export interface SlotSourceProviderProps {
  /** The page's one slot source, made before React (host/startup) or by a test. */
  source: SlotSource;
  children?: ReactNode;
}

/** Gives the pages the page's slot source: its slot data (`useSlotData`) and its session (`useSession`). */
export function SlotSourceProvider({ source, children }: SlotSourceProviderProps) {
  return <SlotSourceContext.Provider value={source}>{children}</SlotSourceContext.Provider>;
}

function useSource(missing: string): SlotSource {
  const source = useContext(SlotSourceContext);
  if (!source) throw new Error(missing);
  return source;
}

/** The page's slot data; re-renders the caller when it changes. Throws an instructive error outside the provider. */
export function useSlotData(): SlotData {
  const source = useSource(HOST_MESSAGES.slotDataProviderMissing);
  return useSyncExternalStore(source.subscribe, source.snapshot, source.snapshot);
}

/** Who is signed in; re-renders the caller when it changes. Throws an instructive error outside the provider. */
export function useSession(): Session {
  const { session } = useSource(HOST_MESSAGES.sessionProviderMissing);
  return useSyncExternalStore(session.subscribe, session.snapshot, session.snapshot);
}
