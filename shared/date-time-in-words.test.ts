import { browserLanguage } from '../testing/host/browser-language';
import { dateLocales, dayInWords, instantInWords } from './date-time-in-words';

const AT = Date.UTC(2026, 10, 29, 20, 31, 53);

describe('instantInWords', () => {
  it.each([
    ['Europe/Berlin', '29 Nov 2026, 21:31 GMT+1', 'Nov 29, 2026, 9:31 PM GMT+1'],
    ['America/New_York', '29 Nov 2026, 15:31 GMT-5', 'Nov 29, 2026, 3:31 PM GMT-5'],
    ['Africa/Cairo', '29 Nov 2026, 22:31 GMT+2', 'Nov 29, 2026, 10:31 PM GMT+2'],
    // The reader's date, not the server's: already the next day.
    ['Asia/Kolkata', '30 Nov 2026, 02:01 GMT+5:30', 'Nov 30, 2026, 2:01 AM GMT+5:30'],
  ])('writes the instant in the zone it is read in (%s), saying which: %s in en-GB, %s in en-US', (zone, gb, us) => {
    expect(instantInWords(AT, ['en-GB'], zone)).toBe(gb);
    expect(instantInWords(new Date(AT).toISOString(), ['en-GB', 'en'], zone)).toBe(gb);
    expect(instantInWords(AT, ['en-US', 'en'], zone)).toBe(us);
  });

  it('writes its day as dayInWords writes one, in the reader’s form of English', () => {
    for (const locales of [['en-GB'], ['en-US'], ['en'], ['en-AU'], ['en-CA']]) {
      expect({ locales, instant: instantInWords(AT, locales, 'UTC') }).toEqual({
        locales,
        instant: expect.stringMatching(new RegExp(`^${dayInWords('2026-11-29', locales)}, `)),
      });
    }
  });

  it('writes it in the reader’s own zone when given none', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(instantInWords(AT, ['en-GB'])).toBe(instantInWords(AT, ['en-GB'], zone));
  });

  it('gives back a text that is no instant as it came', () => {
    expect(instantInWords('soon', ['en'])).toBe('soon');
  });
});

describe('instantInWords in a browser set to Arabic', () => {
  browserLanguage('ar-EG');

  it('still writes English, with Latin digits, inside the English sentences around it', () => {
    expect(instantInWords(AT, dateLocales('en', ['ar-EG']), 'Africa/Cairo')).toBe('Nov 29, 2026, 10:31 PM GMT+2');
  });
});

/**
 * A date field's day in words. It must not depend on the reader's time zone: run this file under TZ=America/Los_Angeles
 * (the day began 8 hours after UTC's) and TZ=Pacific/Kiritimati (14 hours before) as well as UTC.
 */
describe('dayInWords', () => {
  it('writes the day in the locale’s own form', () => {
    expect(dayInWords('2024-01-15', ['en-GB'])).toBe('15 Jan 2024');
    expect(dayInWords('2024-01-15', ['en-US'])).toBe('Jan 15, 2024');
    expect(dayInWords('2024-01-15', ['en'])).toBe('Jan 15, 2024');
    // The first locale of the list that the formatter knows.
    expect(dayInWords('2024-01-15', ['en-GB', 'en'])).toBe('15 Jan 2024');
  });

  it('keeps the day the field holds, whatever the time zone (at each end of a year, month and leap day)', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (const [day, words] of [
      ['2024-01-01', '1 Jan 2024'],
      ['2023-12-31', '31 Dec 2023'],
      ['2024-02-29', '29 Feb 2024'],
      ['2024-03-01', '1 Mar 2024'],
      ['2024-06-30', '30 Jun 2024'],
    ]) {
      expect({ zone, day, words: dayInWords(day!, ['en-GB']) }).toEqual({ zone, day, words });
    }
  });

  it('writes the years before 100 as they are (Date.UTC would make 0099 into 1999)', () => {
    expect(dayInWords('0099-07-04', ['en-GB'])).toBe('4 Jul 99');
    expect(dayInWords('0001-01-01', ['en-GB'])).toBe('1 Jan 1');
  });

  it('gives back a text that is no calendar day as it came', () => {
    for (const text of ['2023-02-29', '2024-13-01', '15/01/2024', 'soon', ''])
      expect(dayInWords(text, ['en'])).toBe(text);
  });
});

describe('dateLocales', () => {
  it('takes the reader’s own forms of the page’s language first, in the browser’s order, then the page’s', () => {
    expect(dateLocales('en', ['en-GB', 'en-US'])).toEqual(['en-GB', 'en-US', 'en']);
    expect(dateLocales('en', ['de-DE', 'en-US', 'en-GB'])).toEqual(['en-US', 'en-GB', 'en']);
    expect(dayInWords('2024-01-15', dateLocales('en', ['de-DE', 'en-GB']))).toBe('15 Jan 2024');
  });

  it('keeps the page’s language when the reader names none of its forms', () => {
    expect(dateLocales('en', ['de-DE', 'fr', 'eo'])).toEqual(['en']);
    expect(dateLocales('en', [])).toEqual(['en']);
    expect(dayInWords('2024-01-15', dateLocales('en', ['de-DE']))).toBe('Jan 15, 2024');
  });
});
