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
 * `Sunday 29 November`: in English like the greeting before it and the rest of the admin, not in the browser's
 * language (a German browser wrote "Good evening · Sonntag, 29. November").
 */
const DAY_IN_WORDS = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });

/** Greets the signed-in user on the dashboard (usually as the content of a Callout). */
export function WelcomeCard({ title }: WelcomeCardProps) {
  const now = new Date();
  const date = DAY_IN_WORDS.format(now);
  return (
    <div className="welcome">
      <p className="welcome__eyebrow">
        {greeting(now.getHours())} · {date}
      </p>
      <h2 className="welcome__title">{title}</h2>
    </div>
  );
}
