/**
 * An instant as the admin writes it (`29 Nov 2026, 21:31 GMT+1`): in English, in the reader's own time zone, saying
 * which. The host's pages write theirs with host/text/instant-in-words.ts, in the same words; a remote ships on its
 * own and cannot import the host, so the built-in remotes write theirs here, alike.
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

/** `at` (milliseconds) in the reader's time zone, or in `timeZone` when given (tests). */
export function instantInWords(at: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', { ...INSTANT_IN_WORDS, timeZone }).format(at);
}
