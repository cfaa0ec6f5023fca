import { instantInWords } from '../../shared/date-time-in-words';
import { readerLocales } from './reader-locales';

/**
 * An instant as the reader reads it (instantInWords, in the reader's form of English), in a `<time>` whose `dateTime` gives it exactly to machines and
 * whose title gives it exactly on hover (the words stop at the minute).
 */
export function InstantTime({ at }: { at: number | string }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return <>{String(at)}</>;
  const exact = date.toISOString();
  return (
    <time dateTime={exact} title={exact}>
      {instantInWords(at, readerLocales())}
    </time>
  );
}
