import type { PlacementProblem } from '../../../shared';
import { countOf } from '../common/count-in-words';

/**
 * What the editor says above the draft when problems stop a publish, and where each is shown: a problem of one slot
 * or form slot of the draft (it has an index) with its card; one of the document itself, a remote entry, an
 * allow-list or a slot of code or the file the draft causes (no index) in the list under this line. Null when nothing
 * stops a publish.
 */
export function blockingSummary(problems: readonly PlacementProblem[]): string | null {
  const blocking = problems.filter((problem) => problem.blocking);
  if (blocking.length === 0) return null;
  const atSlots = blocking.filter((problem) => problem.index !== null).length;
  const listed = blocking.length - atSlots;
  const stop = `${countOf(blocking.length, 'problem')} of the saved draft ${blocking.length === 1 ? 'stops' : 'stop'} a publish`;
  if (listed === 0) return `${stop}; ${atSlots === 1 ? 'it is' : 'each is'} shown with its slot.`;
  if (atSlots === 0) {
    return listed === 1
      ? `${stop}; it is listed below, as it is not about one slot of the draft.`
      : `${stop}; they are listed below, as none is about one slot of the draft.`;
  }
  return (
    `${stop}: ${atSlots} ${atSlots === 1 ? 'is shown with its slot' : 'are shown with their slots'}, ` +
    `${listed} ${listed === 1 ? 'is' : 'are'} listed below (not about one slot of the draft).`
  );
}
