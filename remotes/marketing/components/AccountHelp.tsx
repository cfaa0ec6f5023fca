import type { PropsOf } from '../../kit';
import type remote from '../remote';

export interface AccountHelpTopic {
  question: string;
  answer: string;
}

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type AccountHelpProps = PropsOf<typeof remote, 'AccountHelp'>;

function topicList(topics: unknown): AccountHelpTopic[] {
  if (!Array.isArray(topics)) return [];
  return topics.filter(
    (topic): topic is AccountHelpTopic =>
      topic !== null &&
      typeof topic === 'object' &&
      typeof (topic as { question?: unknown }).question === 'string' &&
      typeof (topic as { answer?: unknown }).answer === 'string',
  );
}

/**
 * Help under the sign-in form for what the form cannot do: a forgotten password, a missing account. Staff accounts
 * are added and reset by an administrator (`npm run user:add`), so that is where the answers point.
 */
export function AccountHelp({ topics }: AccountHelpProps) {
  const items = topicList(topics);
  if (items.length === 0) return null;
  return (
    <section className="muted" aria-label="Help with signing in">
      {items.map((topic) => (
        <p key={topic.question}>
          <strong>{topic.question}</strong> {topic.answer}
        </p>
      ))}
    </section>
  );
}
