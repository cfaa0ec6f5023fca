import { REMOTE_NAME_PATTERN } from '../../shared';
import { commandLine } from '../process/operator-commands';

export const TEAM_TOKEN_USAGE =
  `usage: ${commandLine('token:add', '<remote> [--expires <days>d]')}   |   ` +
  `${commandLine('token:revoke', '<token id>')}   |   ${commandLine('token:list')}`;

export type TeamTokenArgs =
  | { action: 'add'; remote: string; expiresInMs: number | null }
  | { action: 'revoke'; id: string }
  | { action: 'list' };

const DAY_MS = 24 * 60 * 60 * 1000;

/** The refusal of an `--expires` value that is not a number of days. */
export const expiresRefusal = (value: string): string =>
  `--expires takes a whole number of days from 1 to 99999 followed by "d" (for example 90d), not "${value}".`;

/**
 * Parses `add <remote> [--expires <days>d]`, `revoke <token id>` or `list`; a refusal saying why for an `--expires` value
 * that is no number of days; null when the arguments are not one of them.
 */
export function parseTeamTokenArgs(argv: readonly string[]): TeamTokenArgs | { refused: string } | null {
  const [action, subject, ...rest] = argv;
  if (action === 'list') return subject === undefined ? { action } : null;
  if (action === 'revoke')
    return subject && rest.length === 0 && /^[0-9a-f]+$/.test(subject) ? { action, id: subject } : null;
  if (action !== 'add' || !subject || !REMOTE_NAME_PATTERN.test(subject)) return null;
  if (rest.length === 0) return { action, remote: subject, expiresInMs: null };
  const expires =
    rest[0] === '--expires' && rest.length === 2
      ? rest[1]
      : rest.length === 1
        ? /^--expires=(.*)$/.exec(rest[0] ?? '')?.[1]
        : undefined;
  if (expires === undefined) return null;
  const days = /^([1-9][0-9]{0,4})d$/.exec(expires)?.[1];
  return days === undefined
    ? { refused: expiresRefusal(expires) }
    : { action, remote: subject, expiresInMs: Number(days) * DAY_MS };
}
