import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type LoginNoticeProps = PropsOf<typeof remote, 'LoginNotice'>;

/** A short message above the sign-in form (who may sign in, what the workspace is for). */
export function LoginNotice({ title, text }: LoginNoticeProps) {
  return (
    <section className="notice notice--info" aria-label={typeof title === 'string' ? title : 'Notice'}>
      {typeof title === 'string' && title !== '' && <h2 className="notice__title">{title}</h2>}
      {typeof text === 'string' && <p className="notice__text">{text}</p>}
    </section>
  );
}
