import { isLoopbackHost } from '../../shared';

/**
 * What is wrong with an absolute remote entry, or null when a browser may be given it. Every entry is published to
 * anonymous visitors (`GET /api/remotes`, the boot data) and its origin is copied into the page's
 * Content-Security-Policy (`script-src` and others), so an entry must not:
 * - carry credentials (`https://user:password@...`): every visitor would read them;
 * - have a wildcard host (`https://*.example.com`): in `script-src` it lets every matching site serve scripts;
 * - use plain `http:` on a host other than loopback in production: anyone on the network path could swap the remote's
 *   code. A development server may (a kit dev server on another machine of the network).
 * The message names the entry, with any credentials masked (they must not reach a log either).
 */
export function checkEntryUrl(url: URL, production: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `"entry" must use http or https, got ${url.protocol}.`;
  }
  const shown = JSON.stringify(masked(url));
  if (url.username !== '' || url.password !== '') {
    return (
      `"entry" ${shown} carries credentials (user:password@), which every visitor would read in GET /api/remotes ` +
      "and the page's boot data; remove them (the remote's files must be readable without credentials)."
    );
  }
  if (url.hostname.includes('*')) {
    return (
      `"entry" ${shown} has a wildcard host ("${url.hostname}"); its origin goes into the page's ` +
      "Content-Security-Policy script-src, where a wildcard lets any matching site serve scripts: name the remote's " +
      'exact host.'
    );
  }
  if (production && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return (
      `"entry" ${shown} uses plain http on "${url.hostname}", which is not this machine (NODE_ENV=production): ` +
      "anyone on the way could replace the remote's code. Serve it over https (http is allowed outside production " +
      'and on loopback hosts).'
    );
  }
  return null;
}

/** The URL as it may be written to a log: credentials replaced by `***`. */
function masked(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.username = '***';
  copy.password = '';
  return copy.href;
}
