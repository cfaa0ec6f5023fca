import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type SystemStatusProps = PropsOf<typeof remote, 'SystemStatus'>;

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
