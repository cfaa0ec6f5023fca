import { dateLocales } from '../../shared/date-time-in-words';

/**
 * The locales that write dates and times for the page shown and the browser reading it (dateLocales): the reader's
 * own forms of the page's English, so that a day (dayInWords) and an instant (instantInWords) read alike beside each
 * other, `Jan 15, 2024` beside `Nov 29, 2026, 9:31 PM` for a US reader, `15 Jan 2024` beside `29 Nov 2026, 21:31`
 * for a British one.
 */
export function readerLocales(): string[] {
  return dateLocales(document.documentElement.lang || 'en', navigator.languages);
}
