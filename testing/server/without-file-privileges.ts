/**
 * A command as a process to which files are closed as their modes say, whoever runs the tests: as root, through
 * `setpriv` without the capabilities that let root read, write and search past a file's mode (util-linux, in every
 * Debian). Root stays root, so the process still reaches the checkout wherever it is (a clone in a folder only root
 * may enter, as CI's is), where running it as `nobody` could not.
 */
export function withoutFilePrivileges(command: string, args: readonly string[]): [string, string[]] {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return asRoot
    ? ['setpriv', ['--bounding-set=-dac_override,-dac_read_search', '--', command, ...args]]
    : [command, [...args]];
}
