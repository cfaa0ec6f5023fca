import { instantInUtc } from '../../shared';
import type { TeamTokenListing } from '../releases/team-token-store';
import type { CommandLine } from '../process/operator-commands';

/** Whether a token publishes now, or since when it does not, as its line says it. */
function stateOf(token: TeamTokenListing, now: number): string {
  if (token.revokedAt !== null) return `revoked ${instantInUtc(token.revokedAt)}`;
  if (token.expiresAt === null) return 'live, no expiry';
  if (token.expiresAt <= now) return `expired ${instantInUtc(token.expiresAt)}`;
  return `live until ${instantInUtc(token.expiresAt)}`;
}

/**
 * What `npm run token:list` prints: one line per token (its id, the remote it publishes, when it was made, whether it
 * is live), aligned so the ids can be read down a column and pasted into token:revoke. Nothing of a secret: the
 * store keeps none, and the hash it keeps is not listed. An empty database says so, with the command that makes one,
 * rather than print nothing an operator could take for a failure.
 */
export function teamTokenListing(
  tokens: readonly TeamTokenListing[],
  where: string,
  now: number,
  command: CommandLine,
): string {
  if (tokens.length === 0) {
    return `There are no team tokens in ${where}. Make one with ${command('token:add', '<remote>')}.\n`;
  }
  const width = Math.max(...tokens.map((token) => token.remote.length));
  const lines = tokens.map(
    (token) =>
      `${token.id}  ${token.remote.padEnd(width)}  created ${instantInUtc(token.createdAt)}  ${stateOf(token, now)}`,
  );
  const count = tokens.length === 1 ? '1 team token' : `${tokens.length} team tokens`;
  return (
    `${count} in ${where} (id, remote, created, state; the secrets were shown once, when made, and are not kept). ` +
    `Revoke a live one with ${command('token:revoke', '<id>')}.\n${lines.join('\n')}\n`
  );
}
