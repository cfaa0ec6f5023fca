import { render, screen } from '@testing-library/react';
import { browserLanguage } from '../../../testing/host/browser-language';
import { WelcomeCard } from './WelcomeCard';

/**
 * The day after the greeting in the reader's form of English, as the host writes its days (dateLocales); a browser
 * that prefers German still reads English, as the greeting and the rest of the admin are.
 */
describe('WelcomeCard', () => {
  // A default language that is no English: a day written with no locales given would show it.
  browserLanguage('de-DE');

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date(2026, 10, 29, 19, 30) });
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  describe.each([
    [['en-US', 'en'], 'Sunday, November 29'],
    [['en-GB', 'en'], 'Sunday 29 November'],
    // Another language than the page's: the page's English, as the host writes a day for that reader.
    [['de-DE', 'de'], 'Sunday, November 29'],
  ])('for a reader whose browser names %j', (languages, day) => {
    let spy: jest.SpyInstance;
    beforeEach(() => {
      spy = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
    });
    afterEach(() => spy.mockRestore());

    it(`greets with the day as "${day}"`, () => {
      render(<WelcomeCard title="Welcome back" />);
      expect(screen.getByText(/^Good evening · /).textContent).toBe(`Good evening · ${day}`);
    });
  });
});
