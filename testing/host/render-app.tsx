import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { MePayload } from '../../shared';
import { AppProviders } from '../../host/app/host-app';
import { APP_ROUTES } from '../../host/app/app-routes';
import { ComponentRegistry, createSlotStatus, type RegistrableComponent, type SlotRuntime } from '../../host/core';
import { SlotSource } from '../../host/loader/slot-source';
import { slotDataSettled } from '../../host/loader/slot-data-settled';
import { forgetRecordPagesRead } from '../../host/hooks/resource-definitions';
import type { FakeApi } from './fake-api';
import { renderWithSlotBoundaries } from './render-slots';

/**
 * The whole host app at `path`, on the fake API, for the pages' tests: the slot components registered are
 * `components` (by name), none by default.
 */
export function renderAppAt(
  fake: FakeApi,
  path: string,
  components: Readonly<Record<string, RegistrableComponent>> = {},
  source: SlotSource = new SlotSource({ client: fake.client, pathname: path }),
) {
  // A page load starts with nothing read: what an earlier test's page kept in memory is not this one's.
  forgetRecordPagesRead();
  const slotRegistry = new ComponentRegistry('SlotComponentRegistry');
  slotRegistry.registerMany(components);
  const runtime: Partial<SlotRuntime> = {
    slotRegistry,
    globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
    ...createSlotStatus({ log: () => undefined }),
  };
  // Returned too: a test reads the address the page left (router.state.location).
  const router = createMemoryRouter(APP_ROUTES, { initialEntries: [path] });
  const rendered = renderWithSlotBoundaries(
    <AppProviders client={fake.client} runtime={runtime} source={source}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return Object.assign(rendered, { router });
}

/** `GET /me` of the demo administrator in tenant acme, with `roles`. */
export function demoMe(roles: string[]): MePayload {
  return {
    user: {
      username: 'admin',
      displayName: 'Demo administrator',
      tenants: [{ id: 'acme', name: 'Acme Corp' }],
      currentTenant: 'acme',
      roles,
    },
  };
}

/**
 * {@link renderAppAt}, drawn once the page's slot data is there, as the shell is (host/bootstrap.tsx) when its
 * requests answer in time: a page drawn before its slot data arrives places them as it does for a slow server.
 */
export async function renderAppOnceSlotsAt(
  fake: FakeApi,
  path: string,
  components: Readonly<Record<string, RegistrableComponent>> = {},
) {
  const source = new SlotSource({ client: fake.client, pathname: path });
  await slotDataSettled(source);
  return renderAppAt(fake, path, components, source);
}
