import { commandLine } from '../process/operator-commands';
import { teamTokenListing } from './team-token-listing';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const token = (id: string, remote: string, at: Partial<Record<'expiresAt' | 'revokedAt', number>> = {}) => ({
  id,
  remote,
  createdAt: Date.parse('2026-11-01T08:41:19Z'),
  expiresAt: at.expiresAt ?? null,
  revokedAt: at.revokedAt ?? null,
});

it('lists one token a line, its remote aligned, saying which are live and since when the others are not', () => {
  const listing = teamTokenListing(
    [
      token('0123456789ab', 'team_billing'),
      token('1123456789ab', 'team_billing', { expiresAt: Date.parse('2027-01-01T00:00:00Z') }),
      token('2123456789ab', 'team_mkt', { expiresAt: Date.parse('2026-11-20T00:00:00Z') }),
      token('3123456789ab', 'team_mkt', { revokedAt: Date.parse('2026-11-24T10:00:00Z') }),
    ],
    'SQLite /srv/app.db',
    NOW,
    commandLine,
  );
  expect(listing).toBe(
    '4 team tokens in SQLite /srv/app.db (id, remote, created, state; the secrets were shown once, when made, and are not ' +
      'kept). Revoke a live one with npm run token:revoke -- <id>.\n' +
      '0123456789ab  team_billing  created 2026-11-01 08:41 UTC  live, no expiry\n' +
      '1123456789ab  team_billing  created 2026-11-01 08:41 UTC  live until 2027-01-01 00:00 UTC\n' +
      '2123456789ab  team_mkt      created 2026-11-01 08:41 UTC  expired 2026-11-20 00:00 UTC\n' +
      '3123456789ab  team_mkt      created 2026-11-01 08:41 UTC  revoked 2026-11-24 10:00 UTC\n',
  );
});

it('says plainly that there are none, with the command that makes one', () => {
  expect(teamTokenListing([], 'SQLite /srv/app.db', NOW, commandLine)).toBe(
    'There are no team tokens in SQLite /srv/app.db. Make one with npm run token:add -- <remote>.\n',
  );
});
