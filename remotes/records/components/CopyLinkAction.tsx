import { useEffect, useState } from 'react';
import type { PropsOf, ResourceActionSlotProps } from '../../kit';
import type remote from '../remote';

/** No props of its own (its schema in remote.ts is empty): the resource-action context is all it needs. */
export type CopyLinkActionProps = ResourceActionSlotProps<PropsOf<typeof remote, 'CopyLinkAction'>>;

type Outcome = { kind: 'idle' } | { kind: 'copied' } | { kind: 'manual'; url: string };

/** The canonical URL of the record's view page, on this origin. */
export function recordUrl(resource: string, resourceId: number): string {
  return `${window.location.origin}/resources/${encodeURIComponent(resource)}/${encodeURIComponent(String(resourceId))}`;
}

/** Copies the link of the record to the clipboard; where the clipboard is unavailable, shows it to copy by hand. */
export function CopyLinkAction({ resource, resourceId }: CopyLinkActionProps) {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });

  useEffect(() => {
    if (outcome.kind !== 'copied') return undefined;
    const timer = window.setTimeout(() => setOutcome({ kind: 'idle' }), 2000);
    return () => window.clearTimeout(timer);
  }, [outcome]);

  const copy = async () => {
    const url = recordUrl(resource, resourceId);
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setOutcome({ kind: 'copied' });
    } catch {
      setOutcome({ kind: 'manual', url });
    }
  };

  return (
    <span className="action">
      <button type="button" className="button button--secondary button--small" onClick={() => void copy()}>
        {outcome.kind === 'copied' ? 'Link copied' : 'Copy link'}
      </button>
      {outcome.kind === 'manual' && (
        <input
          className="action__manual"
          aria-label="Record link"
          readOnly
          value={outcome.url}
          onFocus={(event) => event.currentTarget.select()}
          autoFocus
        />
      )}
      <span className="visually-hidden" role="status">
        {outcome.kind === 'copied' ? 'Link copied to the clipboard.' : ''}
      </span>
    </span>
  );
}
