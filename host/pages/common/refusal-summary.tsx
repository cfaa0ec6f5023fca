import type { Ref } from 'react';
import { ServerMessage } from './server-message';

export interface RefusalSummaryProps {
  message: string;
  /** What the server listed as the reasons (a release's broken placements, a draft's problems), one line each. */
  problems: readonly string[];
  /** Where the page puts the focus after a refusal, so it is read out at once. */
  ref: Ref<HTMLDivElement>;
  /** Marks the summary for tests and styles (`data-releases-refused`...). */
  mark: string;
}

/**
 * A change the server refused, announced as an alert with its reasons: the operators' pages share it. The instants its
 * words give (when the rollout moved, when a release was published) read in the reader's zone (ServerMessage).
 */
export function RefusalSummary({ message, problems, ref, mark }: RefusalSummaryProps) {
  return (
    <div className="form-error error-summary" role="alert" tabIndex={-1} ref={ref} {...{ [mark]: '' }}>
      <p>
        Refused: <ServerMessage text={message} />
      </p>
      {problems.length > 0 && (
        <ul className="error-summary__list">
          {problems.map((problem) => (
            <li key={problem}>
              <ServerMessage text={problem} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
