/** One formatter per list of locales: a list of 100 rows writes its date column 100 times a render. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar day as a date field holds it (`YYYY-MM-DD`), for reading, as `locales` write a day: `15 Jan 2024` in
 * en-GB, `Jan 15, 2024` in en-US. The day is no instant: it is written as its midnight in UTC, formatted in UTC, so that
 * no time zone moves it (read as an instant in the reader's zone, `2024-01-01` was 31 Dec 2023 west of Greenwich). A
 * text that is no calendar day (a value stored before the field checked it) is given back as it came.
 */
export function dayInWords(day: string, locales: readonly string[]): string {
  // An ISO text, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999. A day that does not exist (2023-02-29)
  // rolls over to another (1 Mar): only a day that comes back as it was is one.
  const midnight = new Date(`${day}T00:00Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return day;
  const key = locales.join();
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locales, { dateStyle: 'medium', timeZone: 'UTC' });
    formatters.set(key, formatter);
  }
  return formatter.format(midnight);
}

/**
 * Which locales write days for this reader: the page's language (its `lang`, `en`), in the reader's own forms of it
 * that the browser names, in its order (en-GB: `15 Jan 2024`; en-US: `Jan 15, 2024`), then as it stands. A browser
 * that prefers another language still gets English month names, as the sentences around them are English (a de-DE
 * one wrote `15.01.2024` inside them).
 */
export function dayLocales(pageLang: string, readerLanguages: readonly string[]): string[] {
  return [...readerLanguages.filter((tag) => tag.split('-')[0] === pageLang), pageLang];
}

/** dayLocales for the page shown and the browser reading it. */
export function readerDayLocales(): string[] {
  return dayLocales(document.documentElement.lang || 'en', navigator.languages);
}
