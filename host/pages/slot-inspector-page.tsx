import { useCallback, useSyncExternalStore, type ReactNode } from 'react';
import type {
  InspectedFormSlot,
  InspectedRemote,
  InspectedSlot,
  SlotInspectionPayload,
  SlotStatsPayload,
} from '../../shared';
import { useSlotRuntime, type PageSlotReason, type PageSlots, type PageSlotStatus } from '../core';
import { useApi } from '../app/use-api';
import { PageHeading } from '../layout/page-heading';
import { currentSlotStats, FailureRate, LoadTime, useSlotLoadStats } from './slot-load-figures';

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

/**
 * How each status of a remote reads for staff: what the server's last request for its descriptor came to. A timeout
 * is never called "down": a slow remote and a dead one are different calls to make.
 */
export const REMOTE_STATUSES: Record<InspectedRemote['status'], string> = {
  built: 'built',
  listed: 'listed',
  answered: 'answered',
  released: 'served from its release (origin not asked)',
  waiting: 'waiting (not asked yet)',
  down: 'remote down',
  'timed-out': 'timed out',
  'bad-answer': 'answered without a usable descriptor',
  disabled: 'disabled',
};

const STATES: Record<PageSlotStatus['state'], string> = {
  loading: 'Loading',
  loaded: 'Loaded',
  failed: 'Failed',
  hidden: 'Hidden',
};

/**
 * The slot inspector, for signed-in staff: "why is my component not on the page?" without the console. What this
 * tab saw on the page before this one and a few before it (which slots loaded, which failed and why, which a media
 * query hid), then what the server knows (`GET /api/slots/inspect`): every slot of every location and every form
 * slot with its remote, source, visibility and problems, and every remote with its status.
 */
export function SlotInspectorPage() {
  const inspection = useApi<SlotInspectionPayload>('/api/slots/inspect');
  const stats = useSlotLoadStats();
  return (
    <div className="page inspector">
      <PageHeading title="Slot inspector" />
      <p className="muted">Why a component is, or is not, on a page: what this tab saw, then what the server knows.</p>
      <PagesSeen
        disabled={inspection.status === 'ready' ? disabledComponents(inspection.data.remotes) : NONE_DISABLED}
      />
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
          <RegisteredSlots locations={inspection.data.locations} stats={stats} />
          <FormSlots forms={inspection.data.forms} />
          <Remotes remotes={inspection.data.remotes} />
        </>
      )}
    </div>
  );
}

const NONE_DISABLED: ReadonlyMap<string, string> = new Map();

/**
 * Component -> its remote, for the remotes switched off in REMOTES_CONFIG. The page never heard of them (a disabled
 * remote is not sent to it), so it recorded their slots as unknown components; the server knows better.
 */
function disabledComponents(remotes: readonly InspectedRemote[]): ReadonlyMap<string, string> {
  const owners = new Map<string, string>();
  for (const remote of remotes) {
    if (remote.status === 'disabled') for (const component of remote.components) owners.set(component, remote.name);
  }
  return owners;
}

/**
 * What this tab recorded (kept in its sessionStorage, so also after typing this page's address): the page shown
 * before this one in full, then the few pages before it.
 */
function PagesSeen({ disabled }: { disabled: ReadonlyMap<string, string> }) {
  const { pageSlots } = useSlotRuntime();
  const pages = useSyncExternalStore(pageSlots.subscribe, pageSlots.snapshot, pageSlots.snapshot).filter(
    (page) => page.page !== window.location.pathname,
  );
  const [before, ...earlier] = pages;
  return (
    <>
      <section className="inspector__section" aria-labelledby="inspector-page-before">
        <h2 id="inspector-page-before">{before ? `The page before: ${before.page}` : 'The page before'}</h2>
        {before ? (
          <PageSlotsTable page={before} disabled={disabled} />
        ) : (
          <p className="empty">
            No page is recorded in this tab yet. Open the page you want to inspect, then come back here.
          </p>
        )}
      </section>
      {earlier.length > 0 && (
        <section className="inspector__section" aria-labelledby="inspector-earlier-pages">
          <h2 id="inspector-earlier-pages">Earlier pages in this tab</h2>
          {earlier.map((page) => (
            <PageSlotsTable key={page.page} page={page} disabled={disabled} />
          ))}
        </section>
      )}
    </>
  );
}

function PageSlotsTable({
  page: { page, slots },
  disabled,
}: {
  page: PageSlots;
  disabled: ReadonlyMap<string, string>;
}) {
  return (
    <InspectorTable caption={`Slots on ${page}`} data-inspected-page={page}>
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
            <td>{slot.remote ?? disabledRemoteOf(slot, disabled) ?? '—'}</td>
            <td>{STATES[slot.state]}</td>
            <td>{whyOf(slot, disabled)}</td>
          </tr>
        ))}
      </tbody>
    </InspectorTable>
  );
}

/**
 * Every registered slot, with what visitors saw of it in the last hour on the release its remote serves now (every
 * visitor's page loads, from the slot events): how often it failed, and its 95th percentile load time.
 */
function RegisteredSlots({
  locations,
  stats,
}: {
  locations: Record<string, InspectedSlot[]>;
  stats: SlotStatsPayload | null;
}) {
  return (
    <section className="inspector__section" aria-labelledby="inspector-slots">
      <h2 id="inspector-slots">Registered slots</h2>
      <InspectorTable caption="Every slot of every location, as the server registered it, and its loads in the last hour">
        <thead>
          <HeaderRow
            columns={[
              'Location',
              'Component',
              'Remote',
              'Source',
              'Visibility',
              'Problems',
              'Failed (1 h, current release)',
              'Load time p95',
            ]}
          />
        </thead>
        <tbody>
          {Object.entries(locations).flatMap(([location, slots]) =>
            slots.map((slot, index) => {
              const figures = currentSlotStats(stats, { ...slot, location });
              return (
                <tr key={`${location}:${index}`} data-inspected-slot={slot.component}>
                  <td>{location}</td>
                  <SlotCells slot={slot} />
                  <td>
                    <FailureRate stats={figures} />
                  </td>
                  <td>
                    <LoadTime stats={figures} />
                  </td>
                </tr>
              );
            }),
          )}
        </tbody>
      </InspectorTable>
    </section>
  );
}

function FormSlots({ forms }: { forms: Record<string, InspectedFormSlot[]> }) {
  const resources = Object.entries(forms);
  return (
    <section className="inspector__section" aria-labelledby="inspector-form-slots">
      <h2 id="inspector-form-slots">Form slots</h2>
      {resources.length === 0 ? (
        <p className="empty">No resource form has a slot among its fields.</p>
      ) : (
        <InspectorTable caption="Every slot among a resource form's fields, as the server registered it">
          <thead>
            <HeaderRow columns={['Resource', 'Position', 'Component', 'Remote', 'Source', 'Visibility', 'Problems']} />
          </thead>
          <tbody>
            {resources.flatMap(([resource, slots]) =>
              slots.map((slot) => (
                <tr key={`${resource}:${slot.position}`} data-inspected-form-slot={slot.component}>
                  <td>{resource}</td>
                  <td>{slot.position}</td>
                  <SlotCells slot={slot} />
                </tr>
              )),
            )}
          </tbody>
        </InspectorTable>
      )}
    </section>
  );
}

/** A registered slot's cells from its component on: who provides it, where it comes from, what stops it. */
function SlotCells({ slot }: { slot: InspectedSlot }) {
  return (
    <>
      <td>{slot.component}</td>
      <td>{slot.remote ?? '—'}</td>
      <td>{slot.source}</td>
      <td>{slot.visibility}</td>
      <td>
        {slot.hiddenByRule === undefined ? null : <span data-hidden-by-rule>{slot.hiddenByRule}. </span>}
        {slot.problems.length === 0 ? 'None' : slot.problems.join('; ')}
      </td>
    </>
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
              <td data-remote-status={remote.status}>
                {remote.reason ? `${REMOTE_STATUSES[remote.status]}: ${remote.reason}` : REMOTE_STATUSES[remote.status]}
              </td>
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

function disabledRemoteOf(slot: PageSlotStatus, disabled: ReadonlyMap<string, string>): string | undefined {
  return slot.reason === 'unknown-component' ? disabled.get(slot.component) : undefined;
}

/** Why a slot is not on screen; a component of a switched-off remote says so rather than "unknown component". */
function whyOf(slot: PageSlotStatus, disabled: ReadonlyMap<string, string>): string {
  const remote = disabledRemoteOf(slot, disabled);
  if (remote !== undefined) return `remote disabled: ${remote} is switched off ("enabled": false in REMOTES_CONFIG)`;
  return slot.reason ? `${REASONS[slot.reason]}${slot.detail ? `: ${slot.detail}` : ''}` : '—';
}
