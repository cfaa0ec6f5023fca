import { useEffect } from 'react';
import type { SlotLocation } from '../../shared';
import { useSlotData } from './slot-data-provider';
import { useSlotRuntime } from './slot-runtime';

export interface HiddenSlotLocationProps {
  location: SlotLocation;
  /** The media query the location is rendered under, which does not match now. */
  media: string;
}

/**
 * Stands in for a location a page does not render at this width (the sign-in sidebar below 1024 px): renders
 * nothing, and records its slots as hidden by the media query, so the slot inspector can say why they are absent.
 */
export function HiddenSlotLocation({ location, media }: HiddenSlotLocationProps) {
  const { slots } = useSlotData();
  const { pageSlots, remoteOf } = useSlotRuntime();
  const entries = slots[location.value];
  useEffect(() => {
    (entries ?? []).forEach((entry, index) => {
      pageSlots.set(window.location.pathname, {
        location: location.value,
        index,
        component: entry.component,
        remote: remoteOf(entry.component),
        state: 'hidden',
        reason: 'hidden-by-media',
        detail: `${media} does not match this window`,
      });
    });
  }, [entries, location, media, pageSlots, remoteOf]);
  return null;
}
