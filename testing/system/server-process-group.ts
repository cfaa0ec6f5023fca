import { readdirSync, readFileSync } from 'node:fs';

/**
 * The process groups `startServerProcess` starts, and how it ends them. A crashed or interrupted test run must not
 * leave servers holding ports, so the groups still running are killed when this process exits, whatever the reason.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

const GROUP_GONE_POLL_MS = 20;

/** Counts the group led by `pid` as running until `forget` or `killGroupAndWait` sees it gone. */
export function trackGroup(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
  liveGroups.add(pid);
}

/** Sends `signal` to the process group led by `pid`; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * SIGKILL to the group led by `pid`, then waits until none of its processes runs: true once they are gone (and so
 * is any socket they listened on), false if one still runs after `timeoutMs` (the group is then still tracked).
 */
export async function killGroupAndWait(pid: number, timeoutMs = 5_000): Promise<boolean> {
  signalGroup(pid, 'SIGKILL');
  const deadline = Date.now() + timeoutMs;
  while (groupRuns(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, GROUP_GONE_POLL_MS));
  }
  liveGroups.delete(pid);
  return true;
}

/**
 * Whether a process of the group led by `pid` still runs. A killed member whose parent died with the leader is
 * reparented, and where nothing reaps it (PID 1 in some containers) it stays a zombie, still in the group for
 * `kill(-pid, 0)`: its files, sockets included, were closed when it died, so zombies do not count (Linux's /proc).
 */
function groupRuns(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // no /proc: the group exists, zombies or not
  }
  return entries.some((entry) => /^\d+$/.test(entry) && runsInGroup(entry, pid));
}

function runsInGroup(processId: string, group: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${processId}/stat`, 'utf8');
  } catch {
    return false; // gone since the listing
  }
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so the fields start after the last ")".
  const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(pgrp) === group && state !== 'Z' && state !== 'X';
}
