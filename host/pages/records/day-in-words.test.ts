import { dayInWords, dayLocales } from './day-in-words';

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

describe('dayLocales', () => {
  it('takes the reader’s own forms of the page’s language first, in the browser’s order, then the page’s', () => {
    expect(dayLocales('en', ['en-GB', 'en-US'])).toEqual(['en-GB', 'en-US', 'en']);
    expect(dayLocales('en', ['de-DE', 'en-US', 'en-GB'])).toEqual(['en-US', 'en-GB', 'en']);
    expect(dayInWords('2024-01-15', dayLocales('en', ['de-DE', 'en-GB']))).toBe('15 Jan 2024');
  });

  it('keeps the page’s language when the reader names none of its forms', () => {
    expect(dayLocales('en', ['de-DE', 'fr', 'eo'])).toEqual(['en']);
    expect(dayLocales('en', [])).toEqual(['en']);
    expect(dayInWords('2024-01-15', dayLocales('en', ['de-DE']))).toBe('Jan 15, 2024');
  });
});
