import { restoreDeadlineInUtc } from '../../shared';
import { InstantTime } from '../text/instant-time';

/**
 * The server's message about a deleted record, its restore deadline (said in UTC, the server knowing no reader's time
 * zone) shown in the reader's own clock and zone, as the Recently deleted page shows it: the same moment reads the
 * same on every page. A message without that text is shown as it came.
 */
export function DeletedRecordMessage({ message, restorableUntil }: { message: string; restorableUntil: number }) {
  const deadline = restoreDeadlineInUtc(restorableUntil);
  const at = message.indexOf(deadline);
  if (at === -1) return <>{message}</>;
  return (
    <>
      {message.slice(0, at)}
      <InstantTime at={restorableUntil} />
      {message.slice(at + deadline.length)}
    </>
  );
}
