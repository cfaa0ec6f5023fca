import type { ReactNode } from 'react';
import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it (inferred from its schema in remote.ts), and the slot's content as children. */
export type CalloutProps = PropsOf<typeof remote, 'Callout'> & {
  /** The slot's content: text, or other slots the host rendered through its registry. */
  children?: ReactNode;
};

const TONES = new Set<CalloutProps['tone']>(['info', 'success', 'warning']);
const ICONS: Record<CalloutProps['tone'], string> = { info: 'i', success: '✓', warning: '!' };
/** What its icon says, for a screen reader: the name of the note. */
const NAMES: Record<CalloutProps['tone'], string> = { info: 'Information', success: 'Success', warning: 'Warning' };

/**
 * A toned box around whatever content the server gave the slot: a note named after its tone, not a landmark. As a
 * landmark it sat among the page's own (named "Success" on the dashboard, which says nothing of where it leads), and
 * inside the placements editor's preview among the editor's.
 */
export function Callout({ tone, children }: CalloutProps) {
  const known = TONES.has(tone) ? tone : 'info';
  return (
    <div className={`callout callout--${known}`} role="note" aria-label={NAMES[known]}>
      <span className="callout__icon" aria-hidden="true">
        {ICONS[known]}
      </span>
      <div className="callout__body">{children}</div>
    </div>
  );
}
