/**
 * Whom a folder's group lets change it, as db:backup decides before writing there (the process test as another user
 * is in server/cli/db-backup.test.ts): the accounts as /etc/passwd and /etc/group would list them.
 */
import { groupSharedWithOthers, type SystemAccounts } from './backup-destination';

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
