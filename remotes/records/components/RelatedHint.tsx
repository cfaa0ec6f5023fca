export interface RelatedHintProps {
  text: string;
}

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
