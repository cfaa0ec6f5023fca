import { SlotLocation, type ResourceActionContext, type SlotLocationValue } from '../../shared';
import { useSlotData } from './slot-data-provider';
import { SlotItem } from './slot-item';

/**
 * The two locations whose slots receive the record on the page as `{ resource, resourceId, record }`: the actions
 * of the record view and of the record edit page.
 */
const CONTEXT_LOCATIONS: ReadonlySet<SlotLocation> = new Set([
  SlotLocation.RESOURCE_PAGE_ACTIONS,
  SlotLocation.RESOURCE_EDIT_ACTIONS,
]);

export interface AppSlotRendererProps {
  location: SlotLocation | SlotLocationValue;
  /** For resource-page-actions and resource-edit-actions; ignored at other locations (they get no context). */
  context?: ResourceActionContext;
  className?: string;
}

/**
 * Renders the slots registered at a location, in order, from the page's one slot source (GET /meta when signed in,
 * GET /slots otherwise). The wrapper carries `data-slot-location`; each slot `data-slot-component`.
 */
export function AppSlotRenderer({ location, context, className }: AppSlotRendererProps) {
  // A value is checked once here (a caller outside TypeScript may pass any string); a case is used as it is.
  const slotLocation = typeof location === 'string' ? SlotLocation.from(location) : location;
  const { value } = slotLocation;
  const { slots, status } = useSlotData();
  const entries = slots[value] ?? [];
  const slotContext = CONTEXT_LOCATIONS.has(slotLocation) ? context : undefined;

  return (
    <div
      className={['slot-location', `slot-location--${value}`, className].filter(Boolean).join(' ')}
      data-slot-location={value}
      aria-busy={status === 'loading' ? true : undefined}
    >
      {entries.map((entry, index) => (
        <SlotItem key={`${index}:${entry.component}`} entry={entry} location={value} context={slotContext} />
      ))}
    </div>
  );
}
