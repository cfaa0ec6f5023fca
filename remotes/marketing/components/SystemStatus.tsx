export interface SystemStatusProps {
  status: 'operational' | 'degraded';
  text: string;
}

const LABELS: Record<SystemStatusProps['status'], string> = {
  operational: 'Operational',
  degraded: 'Degraded',
};

/** One-line service status shown above every page's content: a coloured state badge, then the server's text. */
export function SystemStatus({ status, text }: SystemStatusProps) {
  const known = status === 'degraded' ? 'degraded' : 'operational';
  return (
    <p className={`status-line status-line--${known}`} role="status">
      <span className="status-line__dot" aria-hidden="true" />
      <strong className="status-line__state">{LABELS[known]}</strong>
      {typeof text === 'string' && text !== '' && <span className="status-line__text">{text}</span>}
    </p>
  );
}
