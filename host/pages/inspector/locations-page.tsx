import type { CatalogueLocation, CatalogueSlot, LocationsPayload } from '../../../shared';
import { describeRule } from '../../../shared';
import { useApi } from '../../hooks/use-api';
import { PageHeading } from '../../layout/page-heading';
import { BreakableText } from '../../text/breakable-text';
import { ServerAnswerStatus, ToolTable } from './tool-table';

/**
 * The location catalogue, for signed-in staff: every location of the admin interface, public or protected, the props
 * the host adds there, which remotes may fill it, and what fills it now in order, each slot with its placement and
 * its rule (and whether it holds for you). What staff read before placing a component (`GET /api/locations`).
 */
export function LocationsPage() {
  const catalogue = useApi<LocationsPayload>('/api/locations');
  return (
    <div className="page inspector">
      <PageHeading title="Locations" />
      <p className="muted">Every place of the admin where slots render, and what fills each one now, in order.</p>
      <ServerAnswerStatus answer={catalogue} />
      {catalogue.status === 'ready' &&
        catalogue.data.locations.map((location) => <LocationSection key={location.location} location={location} />)}
    </div>
  );
}

/**
 * One location: a section under its heading, not a region of its own (named, a section is one, and thirty of them
 * would drown the page's landmarks); its table of slots is the region, which a keyboard scrolls. Its names break as
 * the slot inspector's do (BreakableText, NAME_SEPARATORS): a heading or a fact has no sideways scroll, so a name
 * wider than its line breaks between its parts, and a part wider than its box inside rather than run off a phone's
 * screen (inspector.css); a table does scroll, and keeps each name whole but for a path's folders.
 */
function LocationSection({ location }: { location: CatalogueLocation }) {
  return (
    <section className="inspector__section" data-catalogue-location={location.location}>
      <h2 id={`location-${location.location}`}>
        <BreakableText text={location.location} wide="break" />
      </h2>
      <dl className="catalogue__facts">
        <dt>Visibility</dt>
        <dd>{location.visibility === 'public' ? 'public (also without signing in)' : 'protected (signed in only)'}</dd>
        <dt>Context props</dt>
        <dd>
          <BreakableText text={location.contextProps.join(', ') || 'none'} wide="break" />
        </dd>
        <dt>Remotes allowed</dt>
        <dd>
          <BreakableText
            text={location.allowedRemotes === null ? 'any' : location.allowedRemotes.join(', ') || 'none'}
            wide="break"
          />
        </dd>
      </dl>
      {location.slots.length === 0 ? (
        <p className="empty">Nothing fills it now.</p>
      ) : (
        <ToolTable
          label={`Slots of ${location.location}`}
          caption={`What fills ${location.location}, in order`}
          columns={['Order', 'Id', 'Component', 'Remote', 'Source', 'Placement', 'Shown when', 'For you']}
        >
          {location.slots.map((slot, index) => (
            <tr key={slot.id} data-catalogue-slot={slot.id}>
              <td>{index + 1}</td>
              <td>
                <BreakableText text={slot.id} />
              </td>
              <td>
                <BreakableText text={slot.component} />
              </td>
              <td>
                <BreakableText text={slot.remote ?? '—'} />
              </td>
              <td>{slot.source}</td>
              <td>{placementOf(slot)}</td>
              <td>{slot.visibleWhen === undefined ? 'always' : describeRule(slot.visibleWhen)}</td>
              <td>{slot.visibleToYou ? 'shown' : 'hidden by its rule'}</td>
            </tr>
          ))}
        </ToolTable>
      )}
    </section>
  );
}

function placementOf(slot: CatalogueSlot): string {
  const parts = [`priority ${slot.priority}`];
  if (slot.before !== undefined) parts.push(`before ${slot.before}`);
  if (slot.after !== undefined) parts.push(`after ${slot.after}`);
  return parts.join(', ');
}
