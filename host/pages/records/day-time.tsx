import { dayInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

/**
 * A date field's day for reading (dayInWords: `15 Jan 2024`) in a `<time>` whose `dateTime` keeps it as stored
 * (`2024-01-15`), for machines and for whoever copies it. A value that is no calendar day, which dayInWords gives
 * back as it came, is shown as it is.
 */
export function DayTime({ day }: { day: string }) {
  const words = dayInWords(day, readerLocales());
  return words === day ? <bdi>{day}</bdi> : <time dateTime={day}>{words}</time>;
}
