import type {
  InspectedFormSlot,
  InspectedRemote,
  InspectedSlot,
  SlotInspectionPayload,
  SlotStatsPayload,
} from '../../../shared';
import { useApi } from '../../hooks/use-api';
import { PageHeading } from '../../layout/page-heading';
import { BreakableText } from '../../text/breakable-text';
import { PagesSeen } from './pages-seen';
import { ServerAnswerStatus, ToolTable } from './tool-table';
import { currentSlotStats, FailureRate, LoadTime, useSlotLoadStats } from '../common/slot-load-figures';

/**
 * How each status of a remote reads for staff: what the server's last request for its descriptor came to. A timeout
 * is never called "down": a slow remote and a dead one are different calls to make.
 */
export const REMOTE_STATUSES: Record<InspectedRemote['status'], string> = {
  built: 'built',
  listed: 'listed',
  answered: 'answered',
  released: 'served from its release (origin not asked yet)',
  waiting: 'waiting (not asked yet)',
  down: 'remote down',
  'timed-out': 'timed out',
  'bad-answer': 'answered without a usable descriptor',
  disabled: 'disabled',
};

/**
 * The slot inspector, for signed-in staff: "why is my component not on the page?" without the console. What this
 * tab saw on the page before this one and a few before it (which slots loaded, which failed and why, which a media
 * query hid), then what the server knows (`GET /api/slots/inspect`): every slot of every location and every form
 * slot with its remote, source, visibility and problems, and every remote with its status. Its sections are found by
 * their headings; only their tables, which a keyboard scrolls, are regions (a named section would be one too).
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
      <ServerAnswerStatus answer={inspection} />
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
    <section className="inspector__section">
      <h2 id="inspector-slots">Registered slots</h2>
      {/* What the header "Failed (1 h)" leaves out, said once rather than in a column heading of four lines. */}
      <p className="muted">Failed and load time: the last hour&apos;s loads of the release each remote serves now.</p>
      <ToolTable
        caption="Every slot of every location, as the server registered it, and its loads in the last hour"
        columns={[
          'Location',
          'Component, remote',
          'Source, visibility',
          'Problems',
          'Failed (1 h)',
          'Load time p95',
          'Props',
        ]}
        dense
      >
        {Object.entries(locations).flatMap(([location, slots]) =>
          slots.map((slot, index) => {
            const figures = currentSlotStats(stats, { ...slot, location });
            return (
              <tr key={`${location}:${index}`} data-inspected-slot={slot.component}>
                <td>
                  <BreakableText text={location} />
                </td>
                <SlotCells slot={slot} />
                <td>
                  <FailureRate stats={figures} />
                </td>
                <td>
                  <LoadTime stats={figures} />
                </td>
                <td>
                  <PropsShown props={slot.props} of={`${slotName(slot)} at ${location}`} />
                </td>
              </tr>
            );
          }),
        )}
      </ToolTable>
    </section>
  );
}

function FormSlots({ forms }: { forms: Record<string, InspectedFormSlot[]> }) {
  const resources = Object.entries(forms);
  return (
    <section className="inspector__section">
      <h2 id="inspector-form-slots">Form slots</h2>
      {resources.length === 0 ? (
        <p className="empty">No resource form has a slot among its fields.</p>
      ) : (
        <ToolTable
          caption="Every slot among a resource form's fields, as the server registered it"
          columns={['Resource', 'Position', 'Component, remote', 'Source, visibility', 'Problems']}
          dense
        >
          {resources.flatMap(([resource, slots]) =>
            slots.map((slot, index) => (
              <tr key={`${resource}:${index}`} data-inspected-form-slot={slot.component}>
                <td>
                  <BreakableText text={resource} />
                </td>
                <td>{slot.position === -1 ? 'left out' : slot.position}</td>
                <SlotCells slot={slot} />
              </tr>
            )),
          )}
        </ToolTable>
      )}
    </section>
  );
}

/** Two slots of one component at a location are told apart by their ids (`RelatedHint#2`, `promo`). */
function slotId(slot: InspectedSlot): string | null {
  return slot.id !== undefined && slot.id !== slot.component ? slot.id : null;
}

/** A slot as its row names it: "RelatedHint", "RelatedHint (id RelatedHint#2)". */
function slotName(slot: InspectedSlot): string {
  const id = slotId(slot);
  return id === null ? slot.component : `${slot.component} (id ${id})`;
}

/**
 * A registered slot's cells from its component on: who provides it, where it comes from, what stops it. The remote is
 * on a line of its own under the component, and the visibility under the source: nine columns, each fact in one,
 * made the slots' table wider than a 1280 px window's frame, and read by scrolling it sideways.
 */
function SlotCells({ slot }: { slot: InspectedSlot }) {
  const id = slotId(slot);
  return (
    <>
      <td>
        <BreakableText text={slot.component} />
        {id !== null && (
          <span className="muted">
            {' '}
            <BreakableText text={`(id ${id})`} />
          </span>
        )}
        {/* A space before each second line: its own line to the eye, a word of its own to a screen reader and to
            the text (without it, "MaintenanceNoticeteam_marketing"). */}
        <span className="inspector__second-line" data-slot-remote>
          {' '}
          <BreakableText text={slot.remote ?? '—'} />
        </span>
      </td>
      <td>
        {slot.source}
        <span className="inspector__second-line"> {slot.visibility}</span>
      </td>
      <td data-slot-problems>
        {slot.hiddenByRule === undefined ? (
          <BreakableText text={slot.problems.join('; ') || 'None'} />
        ) : (
          // The rule's sentence says why the asker does not get it; a "None" after it read as part of the rule.
          <>
            <span data-hidden-by-rule>
              <BreakableText text={slot.hiddenByRule} />
            </span>
            <BreakableText text={slot.problems.map((problem) => `; ${problem}`).join('')} />
          </>
        )}
      </td>
    </>
  );
}

/**
 * A slot's props as the asker's pages get them, folded (a banner's text can be long); why there are none to show when
 * the server sends none (a slot left out, or one the asker's pages do not carry). Its toggle names the slot (`of`):
 * reached by Tab, a row of the table is not read, and a dozen toggles all called "Props" are not told apart.
 */
function PropsShown({ props, of }: { props: InspectedSlot['props']; of: string }) {
  if (props === null) return <span className="muted">not shown</span>;
  if (Object.keys(props).length === 0) return <span className="muted">none</span>;
  return (
    <details className="inspector__props">
      <summary aria-label={`Props of ${of}`}>Props</summary>
      <pre>{JSON.stringify(props, null, 2)}</pre>
    </details>
  );
}

/** A remote's status for staff: what its origin last answered, the release serving it, and why it failed. */
export function remoteStatusText({ status, release, reason }: InspectedRemote): string {
  const served = release !== undefined && status !== 'released' ? ` (release ${release})` : '';
  return `${REMOTE_STATUSES[status]}${served}${reason ? `: ${reason}` : ''}`;
}

function Remotes({ remotes }: { remotes: InspectedRemote[] }) {
  return (
    <section className="inspector__section">
      <h2 id="inspector-remotes">Remotes</h2>
      <ToolTable
        caption="Every remote with its entry, status and components"
        columns={['Remote', 'Entry', 'Status', 'Components', 'With a props schema']}
      >
        {remotes.map((remote) => (
          <tr key={remote.name} data-inspected-remote={remote.name}>
            <td>
              <BreakableText text={remote.name} />
            </td>
            <td className="inspector__entry">
              <BreakableText text={remote.entry || '—'} />
            </td>
            <td data-remote-status={remote.status}>
              <BreakableText text={remoteStatusText(remote)} />
            </td>
            <td>
              <BreakableText text={remote.components.join(', ') || '—'} />
            </td>
            <td>
              <BreakableText text={remote.schemaComponents.join(', ') || 'none (props checked as JSON only)'} />
            </td>
          </tr>
        ))}
      </ToolTable>
    </section>
  );
}
