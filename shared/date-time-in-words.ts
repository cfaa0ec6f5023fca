// Its own module, imported by path: the host's pages and the built-in remotes write days and instants with it, alike.

/**
 * One formatter per list of locales (and zone): a list of 100 rows writes its date column 100 times a render.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locales: readonly string[], options: Intl.DateTimeFormatOptions, key: string): Intl.DateTimeFormat {
  const id = `${key}|${options.timeZone ?? ''}|${locales.join()}`;
  let found = formatters.get(id);
  if (!found) {
    found = new Intl.DateTimeFormat(locales, options);
    formatters.set(id, found);
  }
  return found;
}

/**
 * Which locales write dates and times for this reader: the page's language (its `lang`, `en`), in the reader's own
 * forms of it that the browser names, in its order (en-GB: `15 Jan 2024`; en-US: `Jan 15, 2024`), then as it stands.
 * A browser that prefers another language still gets English month names and Latin digits, as the sentences around
 * them are English (a de-DE one wrote `15.01.2024` inside them, an ar-EG one Arabic-script digits).
 */
export function dateLocales(pageLang: string, readerLanguages: readonly string[]): string[] {
  return [...readerLanguages.filter((tag) => tag.split('-')[0] === pageLang), pageLang];
}

/**
 * A calendar day as a date field holds it (`YYYY-MM-DD`), for reading, as `locales` (dateLocales) write a day:
 * `15 Jan 2024` in en-GB, `Jan 15, 2024` in en-US. The day is no instant: it is written as its midnight in UTC,
 * formatted in UTC, so that no time zone moves it (read as an instant in the reader's zone, `2024-01-01` was 31 Dec
 * 2023 west of Greenwich). A text that is no calendar day (a value stored before the field checked it) is given back
 * as it came.
 */
export function dayInWords(day: string, locales: readonly string[]): string {
  // An ISO text, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999. A day that does not exist (2023-02-29)
  // rolls over to another (1 Mar): only a day that comes back as it was is one.
  const midnight = new Date(`${day}T00:00Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return day;
  return formatter(locales, { dateStyle: 'medium', timeZone: 'UTC' }, 'day').format(midnight);
}

/**
 * How the interface writes an instant: its day as dayInWords writes one, then the time to the minute, both in the
 * reader's form of English (`locales`, dateLocales: `29 Nov 2026, 21:31` in en-GB, `Nov 29, 2026, 9:31 PM` in
 * en-US, beside days written `15 Jan 2024` and `Jan 15, 2024`), in the reader's own time zone, and saying which, as
 * an offset from GMT: an abbreviation such as CST names three zones.
 */
const INSTANT_IN_WORDS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'shortOffset',
};

/**
 * `29 Nov 2026, 21:31 GMT+1` (en-GB), `Nov 29, 2026, 9:31 PM GMT+1` (en-US): an instant (milliseconds, or an ISO
 * 8601 text as the server sends them) as `locales` write it, in the reader's time zone, or in `timeZone` when given
 * (tests: a page's code never passes one). A text that is no instant is given back as it came, rather than failing
 * the page that shows it.
 */
export function instantInWords(at: number | string, locales: readonly string[], timeZone?: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return formatter(locales, { ...INSTANT_IN_WORDS, timeZone }, 'instant').format(date);
}
