import { ApiError, createApiClient } from './api-client';
import {
  canSwitchTenant,
  chosenTenant,
  postTenantSwitch,
  submitTenantSwitch,
  tenantName,
  tenantSwitchReducer,
  TENANT_SWITCH_IDLE,
  type TenantSwitchEvent,
  type TenantSwitchState,
  type TenantSwitchSteps,
} from './tenant-switch';
import type { CurrentUser } from './wire';

const user = (tenants: string[], currentTenant = tenants[0] ?? ''): CurrentUser => ({
  username: 'admin',
  displayName: 'Admin',
  tenants: tenants.map((id) => ({ id, name: id.toUpperCase() })),
  currentTenant,
});

/** Runs a submit the way React does: events through the reducer, the state they lead to returned. */
async function submit(
  person: CurrentUser,
  state: TenantSwitchState,
  steps: TenantSwitchSteps,
): Promise<{ state: TenantSwitchState; events: TenantSwitchEvent[] }> {
  const events: TenantSwitchEvent[] = [];
  let current = state;
  await submitTenantSwitch(person, state, steps, (event) => {
    events.push(event);
    current = tenantSwitchReducer(current, event);
  });
  return { state: current, events };
}

describe('tenant switch', () => {
  it('shows a switcher only to a member of two tenants or more', () => {
    expect(canSwitchTenant(user(['acme']))).toBe(false);
    expect(canSwitchTenant(user(['acme', 'globex']))).toBe(true);
  });

  it('names a tenant, or gives its id when the list does not have it', () => {
    expect(tenantName(user(['acme']), 'acme')).toBe('ACME');
    expect(tenantName(user(['acme']), 'gone')).toBe('gone');
  });

  it('POSTs the tenant to /tenant', async () => {
    const sent: Array<[string, string | undefined]> = [];
    const client = createApiClient(async (url, init) => {
      sent.push([url, init.body]);
      return { ok: true, status: 200, json: async () => ({ user: user(['acme', 'globex'], 'globex') }) };
    });
    await expect(postTenantSwitch(client, 'globex')).resolves.toMatchObject({ user: { currentTenant: 'globex' } });
    expect(sent).toEqual([['/tenant', '{"tenant":"globex"}']]);
  });

  it('switches to the chosen tenant, announces it, and only then runs afterSwitch', async () => {
    const order: string[] = [];
    const person = user(['acme', 'globex']);
    const chosen = tenantSwitchReducer(TENANT_SWITCH_IDLE, { type: 'chosen', tenant: 'globex' });
    expect(chosenTenant(person, chosen)).toBe('globex');
    const { state } = await submit(person, chosen, {
      confirmLeave: () => true,
      switchTenant: async (tenant) => {
        order.push(`switch ${tenant}`);
      },
      afterSwitch: () => order.push('after'),
    });
    expect(order).toEqual(['switch globex', 'after']);
    expect(state).toEqual({ choice: null, switching: false, announcement: 'Switched to GLOBEX.', error: null });
  });

  it('switches nothing for the current tenant, during a switch, or when the person keeps unsaved changes', async () => {
    const person = user(['acme', 'globex']);
    const switchTenant = jest.fn(async () => undefined);
    const confirmLeave = jest.fn(() => true);
    expect((await submit(person, TENANT_SWITCH_IDLE, { confirmLeave, switchTenant })).events).toEqual([]);
    const busy = { ...TENANT_SWITCH_IDLE, choice: 'globex', switching: true };
    expect((await submit(person, busy, { confirmLeave, switchTenant })).events).toEqual([]);
    expect(confirmLeave).not.toHaveBeenCalled();

    const kept = await submit(
      person,
      { ...TENANT_SWITCH_IDLE, choice: 'globex' },
      { confirmLeave: () => false, switchTenant },
    );
    expect(kept.state.choice).toBeNull();
    expect(switchTenant).not.toHaveBeenCalled();
  });

  it("shows the server's message when the switch fails, and runs no afterSwitch", async () => {
    const afterSwitch = jest.fn();
    const steps = (reason: unknown): TenantSwitchSteps => ({
      confirmLeave: () => true,
      switchTenant: async () => Promise.reject(reason),
      afterSwitch,
    });
    const chosen = { ...TENANT_SWITCH_IDLE, choice: 'globex', announcement: 'Switched to ACME.' };
    const refused = await submit(
      user(['acme', 'globex']),
      chosen,
      steps(new ApiError(403, 'forbidden', 'You do not belong to that tenant.')),
    );
    expect(refused.state).toEqual({
      choice: 'globex',
      switching: false,
      announcement: '',
      error: 'You do not belong to that tenant.',
    });
    const broken = await submit(user(['acme', 'globex']), chosen, steps(new Error('bug')));
    expect(broken.state.error).toBe('Could not switch tenant.');
    expect(afterSwitch).not.toHaveBeenCalled();
  });
});
