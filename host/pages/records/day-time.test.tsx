import { render } from '@testing-library/react';
import { InstantTime } from '../../text/instant-time';
import { DayTime } from './day-time';

/**
 * A day (a date field's, DayTime) and an instant (InstantTime, the releases', placements' and deleted records' times)
 * side by side read in one form of English, the reader's: a US reader saw `Jan 15, 2024` beside
 * `29 Nov 2026, 21:31`.
 */
describe.each([
  [['en-US', 'en'], /^Nov 29, 2026, \d{1,2}:\d\d [AP]M GMT/],
  [['en-GB', 'en'], /^29 Nov 2026, \d\d:\d\d GMT/],
  // Another language than the page's: the page's English, as a day is written.
  [['de-DE', 'de'], /^Nov 29, 2026, \d{1,2}:\d\d [AP]M GMT/],
])('for a reader whose browser names %j', (languages, instantForm) => {
  let spy: jest.SpyInstance;
  beforeEach(() => {
    spy = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  });
  afterEach(() => spy.mockRestore());

  // Noon in UTC is the same day in every zone from UTC-11 to UTC+11.
  const noon = '2026-11-29T12:00:00.000Z';
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const sameDay = Math.abs(new Date(noon).getTimezoneOffset()) < 12 * 60;

  it('writes an instant’s day as it writes a day, its `<time>` keeping each exactly', () => {
    const { container } = render(
      <p>
        <DayTime day="2026-11-29" /> / <InstantTime at={noon} />
      </p>,
    );
    const [day, instant] = [...container.querySelectorAll('time')];
    expect(day?.dateTime).toBe('2026-11-29');
    expect(instant?.dateTime).toBe(noon);
    if (sameDay) {
      expect({ zone, instant: instant?.textContent }).toEqual({ zone, instant: expect.stringMatching(instantForm) });
      expect(instant?.textContent?.startsWith(`${day?.textContent}, `)).toBe(true);
    }
  });
});
