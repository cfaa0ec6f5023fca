import { useLayoutEffect, useSyncExternalStore, type ReactNode } from 'react';
import { SlotLocation, type ResourceActionContext, type SlotEntry, type SlotLocationValue } from '../../shared';
import type { SlotData } from '../loader/slot-source';
import { SlotItem } from './slot-item';
import { useSlotRuntime } from './slot-runtime';
import { useSlotData } from './slot-source-provider';
import type { SlotStatusEntry } from './slot-status';

/**
 * The context a slot at `location` receives: the record on the page (`{ resource, resourceId, record }`) where the
 * location declares context props (the actions of the record view and edit pages, shared/slot-location.ts), none
 * elsewhere (a component that needs one fails there). The kit's host emulator and slot tests apply the same rule.
 */
export function slotContextAt(
  location: SlotLocation,
  context: ResourceActionContext | undefined,
): ResourceActionContext | undefined {
  return location.contextProps.length > 0 ? context : undefined;
}

export interface AppSlotRendererProps {
  location: SlotLocation | SlotLocationValue;
  /** For resource-page-actions and resource-edit-actions; ignored at other locations (they get no context). */
  context?: ResourceActionContext;
  className?: string;
  /**
   * What the host shows here when none of the location's slots renders: none is registered, or every one failed
   * (its remote is off, unreachable, or too slow). For what must not depend on one remote alone.
   */
  fallback?: ReactNode;
}

/**
 * Renders the slots registered at a location, in order, from the page's one slot source (GET /meta when signed in,
 * GET /slots otherwise). The wrapper carries `data-slot-location`; each slot `data-slot-component`.
 */
export function AppSlotRenderer(props: AppSlotRendererProps) {
  const { slots, status } = useSlotData();
  // A value is checked once here (a caller outside TypeScript may pass any string); a case is used as it is.
  const location = typeof props.location === 'string' ? SlotLocation.from(props.location) : props.location;
  return <LocationSlots {...props} location={location} entries={slots[location.value] ?? []} status={status} />;
}

export interface LocationSlotsProps extends AppSlotRendererProps {
  location: SlotLocation;
  /** The location's slots, in order. */
  entries: readonly SlotEntry[];
  /** Whether the entries are still on their way (no fallback then: they would replace it at once). */
  status: SlotData['status'];
}

/**
 * A location's slots given as entries, each in its own wrapper, boundary and Suspense: what AppSlotRenderer renders
 * from the page's slot source, and the placements editor from a preview of the draft.
 */
export function LocationSlots({ location, entries, status, context, className, fallback }: LocationSlotsProps) {
  const { value } = location;
  const slotContext = slotContextAt(location, context);
  const { slotStatus, failedSlots } = useSlotRuntime();
  const hasFallback = fallback !== undefined;
  // Before the page paints: a failure the fallback covers never shows as a tool unavailable, not even for a frame.
  useLayoutEffect(() => (hasFallback ? failedSlots.withFallback(value) : undefined), [hasFallback, value, failedSlots]);
  const keys = entries.map((entry, index) => `${index}:${entry.component}`);
  // Read from the slot status, only where there is a fallback to show.
  const readAllFailed = () => fallback !== undefined && everyFailed(slotStatus.snapshot(), value, keys);
  const allFailed = useSyncExternalStore(slotStatus.subscribe, readAllFailed, readAllFailed);
  // Not while the slot data loads: the slots about to arrive would replace the fallback at once.
  const showFallback = fallback !== undefined && status !== 'loading' && allFailed;

  return (
    <div
      className={['slot-location', `slot-location--${value}`, className].filter(Boolean).join(' ')}
      data-slot-location={value}
      aria-busy={status === 'loading' ? true : undefined}
    >
      {entries.map((entry, index) => {
        const key = keys[index] ?? '';
        return <SlotItem key={key} entry={entry} location={value} index={index} context={slotContext} />;
      })}
      {showFallback && fallback}
    </div>
  );
}

/** Whether every slot `keys` names (`index:component`) at the location is on the page and failed (true for none). */
function everyFailed(slots: readonly SlotStatusEntry[], location: string, keys: readonly string[]): boolean {
  return keys.every((key) =>
    slots.some(
      (slot) => slot.location === location && `${slot.index}:${slot.component}` === key && slot.state === 'failed',
    ),
  );
}
