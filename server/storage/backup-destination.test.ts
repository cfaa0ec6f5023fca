/**
 * Whom a folder's group lets change it, as db:backup decides before writing there: the accounts as /etc/passwd and
 * /etc/group would list them (the command's own refusals are in server/cli/db-backup.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../../testing/temp-dir';
import { backupDestinationRefusal, groupSharedWithOthers, type SystemAccounts } from './backup-destination';

const users = [
  { name: 'root', uid: 0, gid: 0 },
  { name: 'ann', uid: 1000, gid: 1000 },
  { name: 'bob', uid: 1001, gid: 1001 },
  { name: 'svc', uid: 1002, gid: 1000 },
];
const groups = [
  { gid: 0, members: [] },
  { gid: 1000, members: [] },
  { gid: 1001, members: [] },
  { gid: 50, members: ['ann', 'bob'] },
  { gid: 60, members: ['ann', 'root'] },
  { gid: 70, members: ['ann', 'ghost'] },
];

describe('groupSharedWithOthers', () => {
  it('counts the users who have the group as theirs, or are listed in it, but this user and root', () => {
    const asAnn: SystemAccounts = { uid: 1000, gid: 1000, users, groups };
    // ann's own group, which svc has as its primary group too: checked by its id alone, it passed for ann's own.
    expect(groupSharedWithOthers(1000, asAnn)).toBe(true);
    expect(groupSharedWithOthers(50, asAnn)).toBe(true);
    expect(groupSharedWithOthers(60, asAnn)).toBe(false);
    // A listed member no account has: not known to be no one else.
    expect(groupSharedWithOthers(70, asAnn)).toBe(true);
    const asBob: SystemAccounts = { uid: 1001, gid: 1001, users, groups };
    expect(groupSharedWithOthers(1001, asBob)).toBe(false);
    expect(groupSharedWithOthers(0, asBob)).toBe(false);
  });

  it('takes a group it cannot know the members of as shared', () => {
    expect(groupSharedWithOthers(1001, { uid: 1001, gid: 1001, users, groups: null })).toBe(true);
    // A group the files do not list, unless it is this user's own.
    expect(groupSharedWithOthers(4242, { uid: 1001, gid: 1001, users, groups })).toBe(true);
    expect(groupSharedWithOthers(4242, { uid: 4242, gid: 4242, users, groups: [] })).toBe(false);
  });
});

describe('backupDestinationRefusal', () => {
  it("refuses a folder writable by this user's own group once another user shares that group", () => {
    const dir = makeTempDir('slots-backup-group-');
    try {
      const grouped = path.join(dir.path, 'grouped');
      fs.mkdirSync(grouped);
      fs.chmodSync(grouped, 0o775);
      const { uid, gid } = fs.statSync(grouped);
      const from = path.join(dir.path, 'app.db');
      const to = path.join(grouped, 'backup.db');
      const own: SystemAccounts = { uid, gid, users: [{ name: 'me', uid, gid }], groups: [{ gid, members: [] }] };
      // Checked by the group's id alone, the folder of the user's own group passed for private.
      const shared: SystemAccounts = { ...own, users: [...own.users, { name: 'svc', uid: uid + 4242, gid }] };
      expect(backupDestinationRefusal(from, to, {}, own)).toBeNull();
      expect(backupDestinationRefusal(from, to, {}, shared)).toBe(
        `The folder ${grouped} (mode 0775, group ${gid}) may be changed by other users, who could take the backup ` +
          '(password hashes and sessions) as it is written. Write it to a folder only this user (and root) may ' +
          `change, e.g. beside the database: ${path.join(dir.path, 'backup.db')}.`,
      );
      // Only the user may write there: nothing refused.
      fs.chmodSync(grouped, 0o755);
      expect(backupDestinationRefusal(from, to, {}, shared)).toBeNull();
    } finally {
      dir.remove();
    }
  });
});
