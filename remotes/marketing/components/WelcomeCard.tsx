export interface WelcomeCardProps {
  title: string;
}

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
