import { browserLanguage } from '../testing/host/browser-language';
import { instantInWords } from './instant-in-words';

const AT = Date.UTC(2026, 10, 29, 20, 31, 53);

describe('instantInWords', () => {
  it.each([
    ['Europe/Berlin', '29 Nov 2026, 21:31 GMT+1'],
    ['America/New_York', '29 Nov 2026, 15:31 GMT-5'],
    ['Africa/Cairo', '29 Nov 2026, 22:31 GMT+2'],
    // The reader's date, not the server's: already the next day.
    ['Asia/Kolkata', '30 Nov 2026, 02:01 GMT+5:30'],
  ])('writes the instant in English in the zone it is read in (%s), saying which: %s', (zone, words) => {
    expect(instantInWords(AT, zone)).toBe(words);
    expect(instantInWords(new Date(AT).toISOString(), zone)).toBe(words);
  });

  it('writes it in the reader’s own zone when given none', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(instantInWords(AT)).toBe(instantInWords(AT, zone));
  });

  it('gives back a text that is no instant as it came', () => {
    expect(instantInWords('soon')).toBe('soon');
  });
});

describe('instantInWords in a browser set to Arabic', () => {
  browserLanguage('ar-EG');

  it('still writes English, with Latin digits, inside the English sentences around it', () => {
    expect(instantInWords(AT, 'Africa/Cairo')).toBe('29 Nov 2026, 22:31 GMT+2');
  });
});
