import { instantInWords } from '../../shared/instant-in-words';

/**
 * An instant as the reader reads it (instantInWords), in a `<time>` whose `dateTime` gives it exactly to machines and
 * whose title gives it exactly on hover (the words stop at the minute).
 */
export function InstantTime({ at }: { at: number | string }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return <>{String(at)}</>;
  const exact = date.toISOString();
  return (
    <time dateTime={exact} title={exact}>
      {instantInWords(at)}
    </time>
  );
}
