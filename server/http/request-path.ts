/** A request target's path, without its query: `/healthz?from=lb` is `/healthz`. `/` for a request without one. */
export function pathOf(url: string | undefined): string {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
