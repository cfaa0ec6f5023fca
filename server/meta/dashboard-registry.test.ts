import type { Dashboard, Tenant } from '../../shared';
import type { RecordSource } from '../resources/record-source';
import { DashboardRegistry } from './dashboard-registry';

const TENANT: Tenant = { id: 'acme', name: 'Acme' };
/** Only the change stamp is read by the registry itself; the cards get the source to read from. */
const records = { changeStamp: () => 'stamp-1' } as unknown as RecordSource;

function registryWith(options: { now?: () => number } = {}) {
  const warnings: { dashboard: string; message: string }[] = [];
  const logger = {
    warn: (fields: Record<string, unknown>, message: string) => {
      warnings.push({ dashboard: String(fields.dashboard), message });
    },
  };
  const registry = new DashboardRegistry(records, { logger, cardsTimeoutMs: 50, retryMs: 10_000, ...options });
  registry.register({ name: 'sales', label: 'Sales', cards: () => [{ title: 'Orders', value: 3 }] });
  return { registry, warnings };
}

const dashboards = async (registry: DashboardRegistry) => JSON.parse(await registry.json(TENANT)) as Dashboard[];
const SALES: Dashboard = { name: 'sales', label: 'Sales', cards: [{ title: 'Orders', value: 3 }] };

describe('DashboardRegistry with a dashboard whose cards fail', () => {
  it.each([
    ['throws', () => Promise.reject(new Error('the warehouse service is down'))],
    [
      'throws before its promise',
      () => {
        throw new Error('bug');
      },
    ],
    ['returns something else than cards', () => 'nope' as never],
    ['gives a card a value that is not a string or a number', () => [{ title: 'Due', value: new Date() as never }]],
    ['never answers', () => new Promise<never>(() => undefined)],
  ])('answers the others, and that one unavailable, when its cards() %s', async (_, cards) => {
    const { registry, warnings } = registryWith();
    registry.register({ name: 'stock', label: 'Stock', cards });
    expect(await dashboards(registry)).toEqual([
      SALES,
      { name: 'stock', label: 'Stock', cards: [], unavailable: true },
    ]);
    expect(warnings).toEqual([
      { dashboard: 'stock', message: expect.stringContaining('Dashboard "stock" is unavailable') },
    ]);
  });

  it('keeps that answer a while, then asks its cards again', async () => {
    let now = 1_000;
    const { registry } = registryWith({ now: () => now });
    let calls = 0;
    registry.register({
      name: 'stock',
      label: 'Stock',
      cards: () => {
        calls++;
        if (calls === 1) throw new Error('down for a moment');
        return [{ title: 'Items', value: 12 }];
      },
    });
    expect((await dashboards(registry))[1]?.unavailable).toBe(true);
    now += 9_000;
    expect((await dashboards(registry))[1]?.unavailable).toBe(true);
    expect(calls).toBe(1);
    now += 1_000;
    expect((await dashboards(registry))[1]).toEqual({
      name: 'stock',
      label: 'Stock',
      cards: [{ title: 'Items', value: 12 }],
    });
    expect(calls).toBe(2);
  });

  it('asks the cards once for requests that arrive while they are worked out', async () => {
    const { registry } = registryWith();
    let calls = 0;
    registry.register({
      name: 'stock',
      label: 'Stock',
      cards: async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return [{ title: 'Items', value: 12 }];
      },
    });
    const answers = await Promise.all([registry.json(TENANT), registry.json(TENANT), registry.json(TENANT)]);
    expect(new Set(answers).size).toBe(1);
    expect(calls).toBe(1);
    expect(registry.builds).toBe(1);
  });
});
