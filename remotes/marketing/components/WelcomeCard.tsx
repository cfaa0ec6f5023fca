import { dateLocales } from '../../../shared/date-time-in-words';
import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type WelcomeCardProps = PropsOf<typeof remote, 'WelcomeCard'>;

function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/**
 * `Sunday 29 November` for a British reader, `Sunday, November 29` for an American one: in the reader's form of the
 * page's English, as the host writes its days (dateLocales), not in en-GB for everyone (a US reader read `29 November`
 * here beside the host's `Nov 29, 2026`), nor in the browser's language (a German one wrote "Sonntag, 29. November"
 * after an English greeting).
 */
const DAY_IN_WORDS: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' };

/** Greets the signed-in user on the dashboard (usually as the content of a Callout). */
export function WelcomeCard({ title }: WelcomeCardProps) {
  const now = new Date();
  const locales = dateLocales(document.documentElement.lang || 'en', navigator.languages);
  const date = new Intl.DateTimeFormat(locales, DAY_IN_WORDS).format(now);
  return (
    <div className="welcome">
      <p className="welcome__eyebrow">
        {greeting(now.getHours())} · {date}
      </p>
      <h2 className="welcome__title">{title}</h2>
    </div>
  );
}
