import type { LastAdministratorError } from '../auth/administrators';
import { nextCommand } from './next-command';

/**
 * A change refused as the last administrator's (a removal, disabling, a role or grant taken away), with the way out
 * (and `otherWayOut`, one of this change's own).
 */
export function lastAdministratorMessage(error: LastAdministratorError, otherWayOut?: string): string {
  const operator = `give another account the operator role first (${nextCommand('user:add', '<username> --keep-password --role operator')})`;
  const ways = otherWayOut === undefined ? operator : `${operator}, ${otherWayOut}`;
  return `Refused: ${error.problem}. To go on, ${ways}. Nothing was changed.`;
}
