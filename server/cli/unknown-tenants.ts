import type { Tenant } from '../../shared';

/**
 * What a command says of tenant ids the database does not have: each of them, with the tenant meant when an id
 * differs from one in case only (ids are exact, and `ACME` reads as `acme` to a person), then the tenants there are.
 * `none`: what to say when there is no tenant yet.
 */
export function unknownTenantsMessage(unknown: readonly string[], known: readonly Tenant[], none = 'none yet'): string {
  const named = unknown.map((id) => {
    const alike = known.find((tenant) => tenant.id.toLowerCase() === id.toLowerCase());
    return alike ? `"${id}" (ids are exact: "${alike.id}"?)` : `"${id}"`;
  });
  const valid = known.map((tenant) => tenant.id).join(', ') || none;
  // `Unknown tenant "a", "b"` said one tenant of two names.
  return `Unknown tenant${unknown.length === 1 ? '' : 's'} ${named.join(', ')}. Tenants: ${valid}.`;
}
