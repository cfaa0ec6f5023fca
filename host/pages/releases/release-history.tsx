import { useId, useState } from 'react';
import type { AuditAction, JsonValue, RemoteHistoryPayload, RemoteRollout } from '../../../shared';
import { useApi } from '../../hooks/use-api';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';
import { InstantTime } from '../../text/instant-time';
import { ServerMessage } from '../common/server-message';
import { describeCanary, remoteApiPath } from './release-change';

const ACTIONS: Record<AuditAction, string> = {
  publish: 'Published',
  activate: 'Activated',
  rollback: 'Rolled back',
  deactivate: 'Own build served again',
  canary: 'Canary set',
  'canary-end': 'Canary ended',
  'canary-auto-rollback': 'Canary rolled back automatically',
  'rollout-start': 'Rollout started',
  'rollout-step': 'Rollout advanced',
  'rollout-pause': 'Rollout paused',
  'rollout-resume': 'Rollout resumed',
  'rollout-promote': 'Rollout promoted',
  'rollout-abort': 'Rollout aborted',
  'rollout-rolled-back': 'Rollout rolled back automatically',
  'rollout-stop': 'Rollout stopped',
  'token-add': 'Token created',
  'token-revoke': 'Token revoked',
};

/** A state before or after a change, in words: a rollout, a version, a token's id; "none" where nothing was. */
export function describeAuditState(value: JsonValue): string {
  if (value === null) return 'none';
  if (typeof value !== 'object') return String(value);
  if ('active' in value) {
    const { active, canary } = value as unknown as RemoteRollout;
    // An automatic rollback says why next to the rollout it left.
    const reason = 'reason' in value && typeof value.reason === 'string' ? ` (${value.reason})` : '';
    return `active ${active ?? 'none'}${canary ? `, canary ${describeCanary(canary)}` : ''}${reason}`;
  }
  // A rollout plan paused, resumed or stopped: where it stood.
  if ('state' in value && typeof value.step === 'number') {
    const reason = typeof value.reason === 'string' ? ` (${value.reason})` : '';
    return `plan ${String(value.state)} at step ${value.step} (${String(value.share)} %)${reason}`;
  }
  // A publish: the version and where its files are.
  if ('version' in value && typeof value.version === 'string') {
    return `${value.version}${typeof value.entry === 'string' ? ` (${value.entry})` : ''}`;
  }
  // A team token: its id, and until when it is valid.
  if ('id' in value && (typeof value.id === 'string' || typeof value.id === 'number')) {
    return `token ${value.id}${typeof value.expiresAt === 'string' ? `, valid until ${instantInWords(value.expiresAt, readerLocales())}` : ''}`;
  }
  return JSON.stringify(value);
}

/**
 * A remote's audit trail, shown on demand: who changed what when, from what to what. Mounted afresh (a new `key`)
 * after each change of the page, so an open history is read again.
 */
export function ReleaseHistory({ remote, revision }: { remote: string; revision: number }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="release-history">
      <button
        type="button"
        className="button button--ghost"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide history' : 'Show history'}
      </button>
      <div id={id}>{open && <HistoryTable key={revision} remote={remote} />}</div>
    </div>
  );
}

function HistoryTable({ remote }: { remote: string }) {
  const history = useApi<RemoteHistoryPayload>(remoteApiPath(remote, 'history'));
  if (history.status === 'loading') return <p role="status">Loading the history…</p>;
  if (history.status === 'error') {
    return (
      <p className="form-error" role="alert">
        The history could not be loaded: <ServerMessage text={history.error.message} />
      </p>
    );
  }
  if (history.data.entries.length === 0) return <p className="empty">No change recorded yet.</p>;
  return (
    <div className="table-wrap" role="region" aria-label={`History of ${remote}`} tabIndex={0}>
      <table className="table">
        {/* The caption stays the table's own, an empty box at its top, what it says out of sight inside it: given
            the visually-hidden class itself, it was taken out of the table's layout (position: absolute makes a
            caption a block), a box placed between the column headings and the first row at the frame's edge. */}
        <caption>
          <span className="visually-hidden">History of {remote}, newest first</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Before → after</th>
          </tr>
        </thead>
        <tbody>
          {history.data.entries.map((entry) => (
            <tr key={entry.id} data-audit-action={entry.action}>
              <td className="release-history__when">
                <InstantTime at={entry.at} />
              </td>
              <td>{entry.actor}</td>
              <td>{ACTIONS[entry.action]}</td>
              <td>
                {describeAuditState(entry.before)} → {describeAuditState(entry.after)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
