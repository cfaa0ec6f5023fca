import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type SaveNoteProps = PropsOf<typeof remote, 'SaveNote'>;

/** A note under a record form about what saving does. */
export function SaveNote({ text }: SaveNoteProps) {
  if (typeof text !== 'string' || text === '') return null;
  return <p className="hint">{text}</p>;
}
