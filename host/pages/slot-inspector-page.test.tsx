import '../../testing/host/router-globals';
import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SLOT_INSPECTOR_PATH, type InspectedRemote, type MePayload, type SlotInspectionPayload } from '../../shared';
import { ComponentRegistry, createSlotStatus, type SlotRuntime } from '../core';
import { createFakeApi } from '../../testing/host/fake-api';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import { AppProviders } from '../app/host-app';
import { APP_ROUTES } from '../app/app-routes';
import { SlotSource } from '../loader/slot-source';

const ME: MePayload = {
  user: {
    username: 'admin',
    displayName: 'Demo administrator',
    tenants: [{ id: 'acme', name: 'Acme Corp' }],
    currentTenant: 'acme',
    roles: [],
  },
};

function remote(name: string, status: InspectedRemote['status'], reason?: string): InspectedRemote {
  return {
    name,
    entry: `https://${name}.example`,
    status,
    ...(reason === undefined ? {} : { reason }),
    components: [],
    formComponents: [],
    schemaComponents: [],
  };
}

const INSPECTION: SlotInspectionPayload = {
  locations: {},
  forms: {},
  remotes: [
    remote('team_up', 'answered'),
    remote('team_down', 'down', 'https://team_down.example/…: connect ECONNREFUSED 10.0.0.9:443'),
    remote('team_slow', 'timed-out', 'https://team_slow.example/… did not answer within 3000 ms'),
    remote('team_bad', 'bad-answer', 'https://team_bad.example/… answered 404'),
    remote('team_kept', 'released'),
  ],
};

function renderInspector() {
  const fake = createFakeApi({
    'GET /me': { body: ME },
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'GET /api/slots/inspect': { body: INSPECTION },
  });
  const runtime: Partial<SlotRuntime> = {
    slotRegistry: new ComponentRegistry('SlotComponentRegistry'),
    globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
    ...createSlotStatus({ log: () => undefined }),
  };
  return renderWithSlotBoundaries(
    <AppProviders
      client={fake.client}
      runtime={runtime}
      source={new SlotSource({ client: fake.client, pathname: SLOT_INSPECTOR_PATH })}
    >
      <RouterProvider router={createMemoryRouter(APP_ROUTES, { initialEntries: [SLOT_INSPECTOR_PATH] })} />
    </AppProviders>,
  );
}

async function statusOf(name: string): Promise<string> {
  await screen.findByRole('region', { name: /Every remote/ });
  const row = document.querySelector(`tr[data-inspected-remote="${name}"] [data-remote-status]`);
  return row?.textContent ?? '';
}

describe('the slot inspector’s remotes', () => {
  it('says what the last request for each descriptor came to: a timeout is "timed out", never "remote down"', async () => {
    renderInspector();
    expect(await statusOf('team_up')).toBe('answered');
    expect(await statusOf('team_down')).toBe(
      'remote down: https://team_down.example/…: connect ECONNREFUSED 10.0.0.9:443',
    );
    const slow = await statusOf('team_slow');
    expect(slow).toBe('timed out: https://team_slow.example/… did not answer within 3000 ms');
    expect(slow).not.toContain('down');
    expect(await statusOf('team_bad')).toBe(
      'answered without a usable descriptor: https://team_bad.example/… answered 404',
    );
    expect(await statusOf('team_kept')).toBe('served from its release (origin not asked)');
  });
});
