import { tabStorage as storage, useSession } from '../core';

/** Whose list of which resource: a list's address is only ever given back to the same user in the same tenant. */
export interface ListOwner {
  username: string;
  tenant: string;
  resource: string;
}

/** Every kept address's key in the tab's sessionStorage starts with it. */
export const LIST_ADDRESS_KEY_PREFIX = 'slots:list-address:';

function keyOf(owner: ListOwner): string {
  return `${LIST_ADDRESS_KEY_PREFIX}${JSON.stringify([owner.username, owner.tenant, owner.resource])}`;
}

/**
 * The way back to a list as it was left: the record pages' breadcrumb leads to the page, sort and search the user
 * last saw, not to the list's first page. Kept per tab (sessionStorage, so a reload of a record page keeps it), per
 * user and tenant (a search is the user's own), and forgotten on sign-out.
 */
export function keepListAddress(owner: ListOwner, search: string): void {
  try {
    const key = keyOf(owner);
    if (search) storage()?.setItem(key, search);
    else storage()?.removeItem(key);
  } catch {
    // Full or refused storage: the breadcrumb leads to the list's first page, as without storage.
  }
}

/** The list's address to go back to: its path, with the search string last kept for it (if any). */
export function listReturnAddress(owner: ListOwner): string {
  const path = `/resources/${encodeURIComponent(owner.resource)}`;
  let search: string | null = null;
  try {
    search = storage()?.getItem(keyOf(owner)) ?? null;
  } catch {
    // As with no storage.
  }
  return search?.startsWith('?') ? `${path}${search}` : path;
}

/** Signing out: no one's list searches stay behind in this tab. */
export function forgetListAddresses(): void {
  const store = storage();
  if (!store) return;
  try {
    for (const key of Object.keys(store)) if (key.startsWith(LIST_ADDRESS_KEY_PREFIX)) store.removeItem(key);
  } catch {
    // Refused storage holds nothing to forget.
  }
}

/** The signed-in user's list of `resource` in the current tenant, or null while nobody is signed in. */
export function useListOwner(resource: string): ListOwner | null {
  const { user } = useSession();
  return user ? { username: user.username, tenant: user.currentTenant, resource } : null;
}
