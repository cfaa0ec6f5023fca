import type { ReactNode } from 'react';

export interface CalloutProps {
  tone: 'info' | 'success' | 'warning';
  /** The slot's content: text, or other slots the host rendered through its registry. */
  children?: ReactNode;
}

const TONES = new Set<CalloutProps['tone']>(['info', 'success', 'warning']);
const ICONS: Record<CalloutProps['tone'], string> = { info: 'i', success: '✓', warning: '!' };

/** A toned box around whatever content the server gave the slot. */
export function Callout({ tone, children }: CalloutProps) {
  const known = TONES.has(tone) ? tone : 'info';
  return (
    <aside className={`callout callout--${known}`}>
      <span className="callout__icon" aria-hidden="true">
        {ICONS[known]}
      </span>
      <div className="callout__body">{children}</div>
    </aside>
  );
}
