import { useEffect } from 'react';
import type { SlotLocation } from '../../shared';
import { useSlotRuntime } from './slot-runtime';
import { useSlotData } from './slot-source-provider';

export interface HiddenSlotLocationProps {
  location: SlotLocation;
  /** The media query the location is rendered under, which does not match now. */
  media: string;
}

/**
 * Stands in for a location a page does not render at this width (the sign-in sidebar below 1024 px): renders
 * nothing, and writes its slots into the slot status as hidden by the media query, so the slot inspector can say
 * why they are absent. Nothing of them mounts, so this is where the media rule is seen being applied.
 */
export function HiddenSlotLocation({ location, media }: HiddenSlotLocationProps) {
  const { slots } = useSlotData();
  const { slotStatus, remoteOf } = useSlotRuntime();
  const entries = slots[location.value];
  useEffect(() => {
    (entries ?? []).forEach((entry, index) => {
      slotStatus.hidden(
        {
          page: window.location.pathname,
          location: location.value,
          index,
          component: entry.component,
          remote: remoteOf(entry.component),
        },
        media,
      );
    });
  }, [entries, location, media, slotStatus, remoteOf]);
  return null;
}
