import { useEffect, useState } from 'react';
import { HOST_TOOLS_EVENT, HOST_TOOLS_UNAVAILABLE_ATTRIBUTE } from '../../kit';

export interface SystemStatusProps {
  status: 'operational' | 'degraded';
  text: string;
}

const LABELS: Record<SystemStatusProps['status'], string> = {
  operational: 'Operational',
  degraded: 'Degraded',
};

/** What the line says while the host reports tools of the page unavailable, whatever the server's text claims. */
export const TOOLS_UNAVAILABLE_STATUS_TEXT = 'Some tools are unavailable.';

/** Whether the host reports failed slots on the page: read at mount, then followed through its event. */
function useToolsUnavailable(): boolean {
  const read = () => document.documentElement.hasAttribute(HOST_TOOLS_UNAVAILABLE_ATTRIBUTE);
  const [unavailable, setUnavailable] = useState(read);
  useEffect(() => {
    const follow = () => setUnavailable(read());
    follow();
    window.addEventListener(HOST_TOOLS_EVENT, follow);
    return () => window.removeEventListener(HOST_TOOLS_EVENT, follow);
  }, []);
  return unavailable;
}

/**
 * One-line service status shown above every page's content: a coloured state badge, then the server's text. While
 * the host reports that some tools of the page failed to load, it says so instead of "all is well".
 */
export function SystemStatus({ status, text }: SystemStatusProps) {
  const toolsUnavailable = useToolsUnavailable();
  const known = status === 'degraded' || toolsUnavailable ? 'degraded' : 'operational';
  const shownText = toolsUnavailable && status !== 'degraded' ? TOOLS_UNAVAILABLE_STATUS_TEXT : text;
  return (
    <p className={`status-line status-line--${known}`} role="status">
      <span className="status-line__dot" aria-hidden="true" />
      <strong className="status-line__state">{LABELS[known]}</strong>
      {typeof shownText === 'string' && shownText !== '' && <span className="status-line__text">{shownText}</span>}
    </p>
  );
}
