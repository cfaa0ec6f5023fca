import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type EditingTipsProps = PropsOf<typeof remote, 'EditingTips'>;

/** Collapsible editing guidance above a record form. */
export function EditingTips({ tips }: EditingTipsProps) {
  const items = Array.isArray(tips) ? tips.filter((tip): tip is string => typeof tip === 'string' && tip !== '') : [];
  if (items.length === 0) return null;
  return (
    <details className="tips" open>
      <summary>Editing tips ({items.length})</summary>
      <ul>
        {items.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
    </details>
  );
}
