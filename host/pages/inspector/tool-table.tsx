import type { ReactNode } from 'react';
import type { ApiState } from '../../hooks/use-api';
import { ServerMessage } from '../common/server-message';

/**
 * The tables of the tool pages (inspector, locations): a captioned table in a keyboard-scrollable region, since
 * they are wider than a phone's screen. The region is named by `label` (what a screen reader's region list shows),
 * the caption says what the rows are.
 */
export function ToolTable({
  label,
  caption,
  columns,
  dense = false,
  children,
  ...data
}: {
  label?: string;
  caption: string;
  columns: readonly string[];
  /** Narrower cells, for a table of many columns that must fit a desktop's window. */
  dense?: boolean;
  children: ReactNode;
  'data-inspected-page'?: string;
}) {
  return (
    <div className="table-wrap inspector__table" role="region" aria-label={label ?? caption} tabIndex={0} {...data}>
      <table className={dense ? 'table inspector__dense' : 'table'}>
        <caption className="inspector__caption">
          <span className="inspector__caption-text">{caption}</span>
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** What a tool page shows while the server's answer is on its way, or why it did not come. */
export function ServerAnswerStatus({ answer }: { answer: ApiState<unknown> }) {
  if (answer.status === 'loading') {
    return (
      <p className="page-status" role="status">
        Asking the server…
      </p>
    );
  }
  if (answer.status === 'error') {
    return (
      <p className="form-error" role="alert">
        The server could not say: <ServerMessage text={answer.error.message} />
      </p>
    );
  }
  return null;
}
