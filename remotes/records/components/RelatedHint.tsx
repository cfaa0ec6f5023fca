import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type RelatedHintProps = PropsOf<typeof remote, 'RelatedHint'>;

/** A hint under the relations block. */
export function RelatedHint({ text }: RelatedHintProps) {
  if (typeof text !== 'string' || text === '') return null;
  return (
    <p className="hint">
      <span className="hint__icon" aria-hidden="true">
        ↳
      </span>
      {text}
    </p>
  );
}
