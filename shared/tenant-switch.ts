import { ApiError, type ApiClient } from './api-client';
import type { CurrentUser, MePayload, TenantSwitchRequest } from './wire';

/**
 * How a tenant switcher behaves, once for both of them: the records remote's (the tenant-switcher slot) and the
 * host's own, shown where that slot renders nothing. Each keeps only its form's markup (React, which shared/ does
 * not have) and how it asks about unsaved changes and switches. Choosing in the list switches nothing until the
 * form is submitted, so arrow keys only move the choice; nothing is disabled while it works, so focus stays; and
 * the outcome is announced.
 */

/** A switcher is shown only to a member of two tenants or more: with one, there is nothing to switch to. */
export function canSwitchTenant(user: CurrentUser): boolean {
  return user.tenants.length >= 2;
}

/** A tenant's name for people, or its id when the user's list does not have it. */
export function tenantName(user: CurrentUser, tenant: string): string {
  return user.tenants.find((candidate) => candidate.id === tenant)?.name ?? tenant;
}

/** POST /tenant: the server switches the session's tenant and answers the user as it now is. */
export function postTenantSwitch(client: ApiClient, tenant: string): Promise<MePayload> {
  const body: TenantSwitchRequest = { tenant };
  return client.post<MePayload>('/tenant', body);
}

/** The form's state: the tenant chosen in the list (null: the current one), and what the last submit did. */
export interface TenantSwitchState {
  choice: string | null;
  switching: boolean;
  /** Read out by a `role="status"` element. */
  announcement: string;
  /** Shown in a `role="alert"` element. */
  error: string | null;
}

export const TENANT_SWITCH_IDLE: TenantSwitchState = { choice: null, switching: false, announcement: '', error: null };

export type TenantSwitchEvent =
  | { type: 'chosen'; tenant: string }
  /** The person kept their unsaved changes: the list goes back to the current tenant. */
  | { type: 'kept' }
  /** The session changed under the switcher (another tab switched it): the list shows the session's tenant. */
  | { type: 'session-changed' }
  | { type: 'started' }
  | { type: 'switched'; announcement: string }
  | { type: 'failed'; error: string };

/** For React's `useReducer`. */
export function tenantSwitchReducer(state: TenantSwitchState, event: TenantSwitchEvent): TenantSwitchState {
  switch (event.type) {
    case 'chosen':
      return { ...state, choice: event.tenant };
    case 'kept':
    case 'session-changed':
      return { ...state, choice: null };
    case 'started':
      return { ...state, switching: true, error: null, announcement: '' };
    case 'switched':
      return { ...state, switching: false, choice: null, announcement: event.announcement };
    case 'failed':
      return { ...state, switching: false, error: event.error };
  }
}

/** The tenant the list shows. */
export function chosenTenant(user: CurrentUser, state: TenantSwitchState): string {
  return state.choice ?? user.currentTenant;
}

/** What differs between the two switchers. */
export interface TenantSwitchSteps {
  /** Asks about unsaved changes: false when the person keeps them, and nothing is switched. */
  confirmLeave(): boolean;
  /** Switches the session's tenant; rejects with an ApiError. */
  switchTenant(tenant: string): Promise<void>;
  /** Runs once the switch is announced (the remote asks the host to reload the session and the slot data). */
  afterSwitch?(): void;
}

/** The form's submit: switches to the chosen tenant, unless it is the current one or a switch is under way. */
export async function submitTenantSwitch(
  user: CurrentUser,
  state: TenantSwitchState,
  steps: TenantSwitchSteps,
  dispatch: (event: TenantSwitchEvent) => void,
): Promise<void> {
  const chosen = chosenTenant(user, state);
  if (state.switching || chosen === user.currentTenant) return;
  if (!steps.confirmLeave()) {
    dispatch({ type: 'kept' });
    return;
  }
  dispatch({ type: 'started' });
  try {
    await steps.switchTenant(chosen);
  } catch (reason) {
    dispatch({ type: 'failed', error: reason instanceof ApiError ? reason.message : 'Could not switch tenant.' });
    return;
  }
  dispatch({ type: 'switched', announcement: `Switched to ${tenantName(user, chosen)}.` });
  steps.afterSwitch?.();
}
