import { useSyncExternalStore } from 'react';
import { useSlotRuntime, type PageSlotReason, type PageSlots, type PageSlotStatus } from '../../core';
import { BreakableText } from '../../text/breakable-text';
import { ToolTable } from './tool-table';

/** How each reason a slot is not on screen reads for staff. */
const REASONS: Record<PageSlotReason, string> = {
  'unknown-component': 'unknown component',
  'not-a-form-component': 'not a form component',
  'remote-unavailable': 'remote down',
  'timed-out': 'timed out (the remote did not answer in time)',
  'load-error': 'could not load',
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
 * What this tab recorded (kept in its sessionStorage, so also after typing this page's address): the page shown
 * before this one in full, then the few pages before it.
 */
export function PagesSeen({ disabled }: { disabled: ReadonlyMap<string, string> }) {
  const { pageSlots } = useSlotRuntime();
  const pages = useSyncExternalStore(pageSlots.subscribe, pageSlots.snapshot, pageSlots.snapshot).filter(
    (page) => page.page !== window.location.pathname,
  );
  const [before, ...earlier] = pages;
  return (
    <>
      <section className="inspector__section">
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
        <section className="inspector__section">
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
    <ToolTable
      caption={`Slots on ${page}`}
      columns={['Location', 'Component', 'Remote', 'State', 'Why']}
      data-inspected-page={page}
    >
      {slots.map((slot) => (
        <tr
          key={`${slot.location}:${slot.index}:${slot.component}`}
          data-slot-status={slot.state}
          data-slot-component={slot.component}
        >
          <td>
            <BreakableText text={slot.location} />
          </td>
          <td>
            <BreakableText text={slot.component} />
          </td>
          <td>
            <BreakableText text={slot.remote ?? disabledRemoteOf(slot, disabled) ?? '—'} />
          </td>
          <td>{STATES[slot.state]}</td>
          <td>
            <BreakableText text={whyOf(slot, disabled)} />
          </td>
        </tr>
      ))}
    </ToolTable>
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
