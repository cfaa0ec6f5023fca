import { useCallback, useSyncExternalStore, type ReactNode } from 'react';
import type { InspectedRemote, InspectedSlot, SlotInspectionPayload } from '../../shared';
import { useSlotRuntime, type PageSlotReason, type PageSlotStatus } from '../core';
import { useApi } from '../app/use-api';
import { PageHeading } from '../layout/page-heading';

/** How each reason a slot is not on screen reads for staff. */
const REASONS: Record<PageSlotReason, string> = {
  'unknown-component': 'unknown component',
  'not-a-form-component': 'not a form component',
  'remote-unavailable': 'remote down',
  'load-error': 'could not load (remote down or timed out)',
  'render-error': 'failed while rendering',
  'props-invalid': 'props invalid',
  'hidden-by-media': 'hidden by the media query',
};

const STATES: Record<PageSlotStatus['state'], string> = {
  loading: 'Loading',
  loaded: 'Loaded',
  failed: 'Failed',
  hidden: 'Hidden',
};

/**
 * The slot inspector, for signed-in staff: "why is my component not on the page?" without the console. What this
 * tab saw on each page it showed (which slots loaded, which failed and why, which a media query hid), then what the
 * server knows (`GET /api/slots/inspect`): every slot of every location with its remote, source, visibility and
 * problems, and every remote with its status.
 */
export function SlotInspectorPage() {
  const inspection = useApi<SlotInspectionPayload>('/api/slots/inspect');
  return (
    <div className="page inspector">
      <PageHeading title="Slot inspector" />
      <p className="muted">Why a component is, or is not, on a page: what this tab saw, then what the server knows.</p>
      <PagesSeen />
      {inspection.status === 'loading' && (
        <p className="page-status" role="status">
          Asking the server…
        </p>
      )}
      {inspection.status === 'error' && (
        <p className="form-error" role="alert">
          The server could not say: {inspection.error.message}
        </p>
      )}
      {inspection.status === 'ready' && (
        <>
          <RegisteredSlots locations={inspection.data.locations} />
          <Remotes remotes={inspection.data.remotes} />
        </>
      )}
    </div>
  );
}

function PagesSeen() {
  const { pageSlots } = useSlotRuntime();
  const subscribe = useCallback((listener: () => void) => pageSlots.subscribe(listener), [pageSlots]);
  const read = useCallback(() => pageSlots.snapshot(), [pageSlots]);
  const pages = useSyncExternalStore(subscribe, read, read).filter((page) => page.page !== window.location.pathname);
  return (
    <section className="inspector__section" aria-labelledby="inspector-pages">
      <h2 id="inspector-pages">Pages seen in this tab</h2>
      {pages.length === 0 && <p className="empty">No other page has been shown in this tab yet.</p>}
      {pages.map(({ page, slots }) => (
        <InspectorTable key={page} caption={`Slots on ${page}`} data-inspected-page={page}>
          <thead>
            <HeaderRow columns={['Location', 'Component', 'Remote', 'State', 'Why']} />
          </thead>
          <tbody>
            {slots.map((slot) => (
              <tr
                key={`${slot.location}:${slot.index}:${slot.component}`}
                data-slot-status={slot.state}
                data-slot-component={slot.component}
              >
                <td>{slot.location}</td>
                <td>{slot.component}</td>
                <td>{slot.remote ?? '—'}</td>
                <td>{STATES[slot.state]}</td>
                <td>{slot.reason ? `${REASONS[slot.reason]}${slot.detail ? `: ${slot.detail}` : ''}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </InspectorTable>
      ))}
    </section>
  );
}

function RegisteredSlots({ locations }: { locations: Record<string, InspectedSlot[]> }) {
  return (
    <section className="inspector__section" aria-labelledby="inspector-slots">
      <h2 id="inspector-slots">Registered slots</h2>
      <InspectorTable caption="Every slot of every location, as the server registered it">
        <thead>
          <HeaderRow columns={['Location', 'Component', 'Remote', 'Source', 'Visibility', 'Problems']} />
        </thead>
        <tbody>
          {Object.entries(locations).flatMap(([location, slots]) =>
            slots.map((slot, index) => (
              <tr key={`${location}:${index}`} data-inspected-slot={slot.component}>
                <td>{location}</td>
                <td>{slot.component}</td>
                <td>{slot.remote ?? '—'}</td>
                <td>{slot.source}</td>
                <td>{slot.visibility}</td>
                <td>{slot.problems.length === 0 ? 'None' : slot.problems.join('; ')}</td>
              </tr>
            )),
          )}
        </tbody>
      </InspectorTable>
    </section>
  );
}

function Remotes({ remotes }: { remotes: InspectedRemote[] }) {
  return (
    <section className="inspector__section" aria-labelledby="inspector-remotes">
      <h2 id="inspector-remotes">Remotes</h2>
      <InspectorTable caption="Every remote with its entry, status and components">
        <thead>
          <HeaderRow columns={['Remote', 'Entry', 'Status', 'Components', 'With a props schema']} />
        </thead>
        <tbody>
          {remotes.map((remote) => (
            <tr key={remote.name} data-inspected-remote={remote.name}>
              <td>{remote.name}</td>
              <td>{remote.entry || '—'}</td>
              <td>{remote.reason ? `${remote.status}: ${remote.reason}` : remote.status}</td>
              <td>{remote.components.join(', ') || '—'}</td>
              <td>{remote.schemaComponents.join(', ') || 'none (props checked as JSON only)'}</td>
            </tr>
          ))}
        </tbody>
      </InspectorTable>
    </section>
  );
}

/** A table's column headings. */
function HeaderRow({ columns }: { columns: readonly string[] }) {
  return (
    <tr>
      {columns.map((column) => (
        <th scope="col" key={column}>
          {column}
        </th>
      ))}
    </tr>
  );
}

/** A captioned table in a keyboard-scrollable region (it may be wider than a phone's screen). */
function InspectorTable({
  caption,
  children,
  ...data
}: {
  caption: string;
  children: ReactNode;
  'data-inspected-page'?: string;
}) {
  return (
    <div className="table-wrap inspector__table" role="region" aria-label={caption} tabIndex={0} {...data}>
      <table className="table">
        <caption className="inspector__caption">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
