// Its own module, imported by path: the host's pages and the built-in remotes write instants with it, alike.

/**
 * How the interface writes an instant: in English like the rest of it, whatever the browser's language (a de-DE
 * browser wrote `29.11.2026, 21:31:53`, an ar-EG one Arabic-script digits, inside English sentences), in the reader's
 * own time zone, and saying which, as an offset from GMT: an abbreviation such as CST names three zones. The day
 * before the month's name, on a 24-hour clock, reads the same to every English reader.
 */
const INSTANT_IN_WORDS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'shortOffset',
};

/**
 * `29 Nov 2026, 21:31 GMT+1`: an instant (milliseconds, or an ISO 8601 text as the server sends them) in the reader's
 * time zone, or in `timeZone` when given (tests: a page's code never passes one). A text that is no instant is given
 * back as it came, rather than failing the page that shows it.
 */
export function instantInWords(at: number | string, timeZone?: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return new Intl.DateTimeFormat('en-GB', { ...INSTANT_IN_WORDS, timeZone }).format(date);
}
