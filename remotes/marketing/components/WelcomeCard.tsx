import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type WelcomeCardProps = PropsOf<typeof remote, 'WelcomeCard'>;

function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** Greets the signed-in user on the dashboard (usually as the content of a Callout). */
export function WelcomeCard({ title }: WelcomeCardProps) {
  const now = new Date();
  const date = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' }).format(now);
  return (
    <div className="welcome">
      <p className="welcome__eyebrow">
        {greeting(now.getHours())} · {date}
      </p>
      <h2 className="welcome__title">{title}</h2>
    </div>
  );
}
