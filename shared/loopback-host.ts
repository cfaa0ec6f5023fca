/**
 * Hosts that never leave this machine: `localhost` (and its subdomains), 127.0.0.0/8, `[::1]` (a URL's `hostname`).
 * Plain http is allowed to them only, by the server for remote entries and by the kit for the team token it sends.
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
