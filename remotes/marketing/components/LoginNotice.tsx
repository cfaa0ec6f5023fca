import type { PropsOf } from '../../kit';
import type remote from '../remote';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type LoginNoticeProps = PropsOf<typeof remote, 'LoginNotice'>;

/**
 * A short message above the sign-in form (who may sign in, what the workspace is for). Its title is no heading: it
 * comes before the page's own "Sign in" (h1), and a heading there would start the page's outline below its title.
 */
export function LoginNotice({ title, text }: LoginNoticeProps) {
  return (
    <section className="notice notice--info" aria-label={typeof title === 'string' ? title : 'Notice'}>
      {typeof title === 'string' && title !== '' && (
        <p className="notice__title">
          <strong>{title}</strong>
        </p>
      )}
      {typeof text === 'string' && <p className="notice__text">{text}</p>}
    </section>
  );
}
