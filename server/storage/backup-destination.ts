import fs from 'node:fs';
import path from 'node:path';

/*
 * Where a backup of the SQLite database may be written (sqlite-backup.ts): not in a folder other users may change,
 * not over a symbolic link, not under a name the database or the server takes as its own.
 */

/**
 * Why the backup may not be written at `to`, before anything is (null when it may): backupSqlite writes the copy
 * under a temporary name beside it, opened again by name and then given its name, so
 * - in a folder another user may change (the folder or one above it, without the sticky bit: writable by others, or
 *   by a group with a member other than this user, see groupSharedWithOthers), that user could put a file of theirs
 *   under the temporary name or move the folder, and SQLite would write every password hash and session into it:
 *   read at once, and the backup said to be private;
 * - a symbolic link there, even to nothing, would be replaced: a backup never overwrites anything;
 * - beside the database, the names of its own companions are not backups: SQLite takes a `-wal`, `-journal` or `-shm`
 *   it finds beside the file at the next start as its own (a backup named `app.db-wal` was gone after it), and the
 *   server reads `session-secret` as its cookie secret (`besideDatabase`, the caller's: this module does not read it).
 * `accounts`: whom the folders' groups hold, the system's by default.
 */
export function backupDestinationRefusal(
  from: string,
  to: string,
  besideDatabase: Readonly<Record<string, string>>,
  accounts: SystemAccounts = readAccounts(),
): string | null {
  if (lstatOrNull(to)?.isSymbolicLink()) {
    return `${to} is a symbolic link (to ${fs.readlinkSync(to)}): a backup never replaces one. Name a new file.`;
  }
  let folder: string;
  try {
    folder = fs.realpathSync(path.dirname(to));
  } catch {
    return null; // No such folder: backupSqlite says so.
  }
  const databaseFolder = realpathOrSelf(path.dirname(from));
  const companions = ['-wal', '-journal', '-shm'].map((suffix) => `${path.basename(from)}${suffix}`);
  const name = path.basename(to);
  const what = companions.includes(name)
    ? 'SQLite takes as its own'
    : Object.hasOwn(besideDatabase, name)
      ? besideDatabase[name]
      : undefined;
  if (folder === databaseFolder && what !== undefined) {
    return (
      `${to} is a file beside the database that ${what} at the next start: a backup there would be lost. ` +
      `Name it otherwise, e.g. ${path.join(folder, 'backup.db')}.`
    );
  }
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const { mode, gid } = fs.statSync(dir);
    const sticky = (mode & 0o1000) !== 0; // S_ISVTX: only a file's owner may rename or delete it
    const byOthers = (mode & 0o002) !== 0 || ((mode & 0o020) !== 0 && groupSharedWithOthers(gid, accounts));
    if (byOthers && !sticky) {
      const octal = (mode & 0o7777).toString(8).padStart(4, '0');
      return (
        `The folder ${dir} (mode ${octal}, group ${gid}) may be changed by other users, who could take the backup ` +
        '(password hashes and sessions) as it is written. Write it to a folder only this user (and root) may change, ' +
        `e.g. beside the database: ${path.join(databaseFolder, 'backup.db')}.`
      );
    }
    if (dir === path.dirname(dir)) return null;
  }
}

/** The system's accounts as /etc/passwd and /etc/group list them; null where either cannot be read. */
export interface SystemAccounts {
  /** This process's user and primary group ids. */
  uid: number;
  gid: number;
  /** /etc/passwd: each user's name, id and primary group. */
  users: readonly { name: string; uid: number; gid: number }[];
  /** /etc/group: each group's id and the names of its listed (supplementary) members. */
  groups: readonly { gid: number; members: readonly string[] }[] | null;
}

function readAccounts(): SystemAccounts {
  const read = (file: string): string[][] | null => {
    try {
      return fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.startsWith('#'))
        .map((line) => line.split(':'));
    } catch {
      return null;
    }
  };
  const passwd = read('/etc/passwd');
  const group = read('/etc/group');
  return {
    uid: process.getuid?.() ?? -1,
    gid: process.getgid?.() ?? -1,
    users: (passwd ?? []).map(([name = '', , uid = '', gid = '']) => ({ name, uid: Number(uid), gid: Number(gid) })),
    groups:
      passwd === null || group === null
        ? null
        : group.map(([, , gid = '', members = '']) => ({
            gid: Number(gid),
            members: members.split(',').filter(Boolean),
          })),
  };
}

/**
 * Whether a user other than this one (and root, who may change any folder anyway) belongs to group `gid`: one whose
 * primary group it is (/etc/passwd) or one listed as its member (/etc/group). A folder writable by such a group is
 * theirs to change too; this user's own primary group counts as soon as another user shares it (one given it as
 * theirs, or added to it): checking the group id alone took every folder of the user's own group for private.
 * Without the two files to read, or for a group they do not list (but this user's own), a group is taken as shared:
 * a backup refused for nothing is said, one handed to another user is not. Members only a directory service (LDAP,
 * NIS) knows are not seen.
 */
export function groupSharedWithOthers(gid: number, accounts: SystemAccounts): boolean {
  if (accounts.groups === null) return true;
  if (gid !== accounts.gid && !accounts.groups.some((group) => group.gid === gid)) return true;
  const others = (uid: number) => uid !== accounts.uid && uid !== 0;
  if (accounts.users.some((user) => user.gid === gid && others(user.uid))) return true;
  const uids = new Map(accounts.users.map((user) => [user.name, user.uid]));
  return accounts.groups.some(
    (group) => group.gid === gid && group.members.some((member) => others(uids.get(member) ?? Number.NaN)),
  );
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

function realpathOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
