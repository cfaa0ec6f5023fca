import type { PropsOf } from '../../kit';
import type remote from '../remote';
import { useState } from 'react';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type MaintenanceNoticeProps = PropsOf<typeof remote, 'MaintenanceNotice'>;

const DISMISSED_KEY = 'team_marketing:maintenance-notice-dismissed';

function wasDismissed(message: string): boolean {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) === message;
  } catch {
    return false;
  }
}

/**
 * Banner in the application header. Informational notices can be dismissed for the browser session (remembered per
 * message, so a new message shows again); warnings stay until the server stops sending them.
 */
export function MaintenanceNotice({ message, severity }: MaintenanceNoticeProps) {
  const [dismissed, setDismissed] = useState(() => wasDismissed(message));
  if (typeof message !== 'string' || message === '' || dismissed) return null;
  const warning = severity === 'warning';

  const dismiss = () => {
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, message);
    } catch {
      // Storage may be disabled; the notice still hides for this page.
    }
    setDismissed(true);
  };

  return (
    <div className={`banner banner--${warning ? 'warning' : 'info'}`} role={warning ? 'alert' : 'status'}>
      <span className="banner__label">{warning ? 'Maintenance' : 'Notice'}</span>
      <span className="banner__text">{message}</span>
      {!warning && (
        <button type="button" className="banner__dismiss" onClick={dismiss} aria-label="Dismiss notice">
          ×
        </button>
      )}
    </div>
  );
}
