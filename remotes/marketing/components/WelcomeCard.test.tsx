import { render, screen } from '@testing-library/react';
import { browserLanguage } from '../../../testing/host/browser-language';
import { WelcomeCard } from './WelcomeCard';

describe('WelcomeCard in a browser set to German', () => {
  browserLanguage('de-DE');

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date(2026, 10, 29, 19, 30) });
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('greets with the day in English, as the rest of the admin speaks', () => {
    render(<WelcomeCard title="Welcome back" />);
    expect(screen.getByText(/^Good evening · /).textContent).toBe('Good evening · Sunday 29 November');
  });
});
