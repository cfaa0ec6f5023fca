/**
 * The rule-name watch follows the tenants and flags there are as well as the slots in force: a poll that finds them
 * changed checks again, a name made says so once, a name gone again is warned of again, and a rule changed to name
 * none is not said to name an existing one.
 */
import pino from 'pino';
import { Slot, SlotLocation, type VisibilityRule } from '../../shared';
import { waitUntil } from '../../testing/server/wait-until';
import type { PlacedSlotInfo } from '../slots/slot-registry';
import { RuleNameWatch } from './rule-name-watch';
import type { KnownRuleNames } from './rule-names-check';

const LOCATION = SlotLocation.from('dashboard-before-cards');
const WHERE = 'Slot "Welcome" at dashboard-before-cards (registered by code): "visibleWhen.tenants"';

function placedWith(rule: VisibilityRule): PlacedSlotInfo {
  return { slot: Slot.make('Welcome').placed({ visibleWhen: rule }), id: 'welcome', source: 'code', remote: null };
}

describe('RuleNameWatch', () => {
  let known: KnownRuleNames;
  let placed: PlacedSlotInfo[];
  let lines: Array<{ level: number; msg: string }>;
  let watch: RuleNameWatch;
  let reads: number;
  /** Reads of the change marker: one a poll. */
  let markers: number;

  beforeEach(() => {
    known = { tenants: ['acme'], flags: [] };
    placed = [placedWith({ tenants: ['initech'] })];
    lines = [];
    reads = 0;
    markers = 0;
    watch = new RuleNameWatch({
      known: () => {
        reads++;
        return Promise.resolve(known);
      },
      // Moves with the names, as the database's change stamp does with every write of them.
      changeMarker: () => {
        markers++;
        return JSON.stringify(known);
      },
      placed: () => new Map([[LOCATION, placed]]),
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      pollMs: 20,
      database: 'SQLite /test.db',
    });
  });
  afterEach(() => watch.close());

  const said = () => lines.map(({ level, msg }) => [level === 40 ? 'warn' : 'info', msg]);
  const untilSaid = (count: number) => waitUntil(() => Promise.resolve(lines.length >= count), 2000, `${count} lines`);
  const warning = (tenants: string) =>
    `${WHERE} names the unknown tenant "initech"; tenants: ${tenants}. Its rule never holds for that name: the slot ` +
    'stays hidden where it should show.';

  it('says a tenant made once, and warns again once it is removed, at its polls', async () => {
    watch.start();
    await untilSaid(1);
    known = { tenants: ['acme', 'initech'], flags: [] };
    await untilSaid(2);
    known = { tenants: ['acme', 'globex'], flags: [] };
    await untilSaid(3);
    // Polls finding the same marker read and say nothing more.
    const [readsThen, markersThen] = [reads, markers];
    await waitUntil(() => Promise.resolve(markers >= markersThen + 3), 2000, 'three more polls');
    expect(reads).toBe(readsThen);
    expect(said()).toEqual([
      ['warn', warning('acme')],
      ['info', `${WHERE} names no unknown tenant now ("initech" exists).`],
      ['warn', warning('acme, globex')],
    ]);
  });

  it('says nothing of a rule changed to name only tenants there are, and warns of a slot back in force', async () => {
    watch.start();
    await untilSaid(1);
    /** Puts `slots` in force and lets the check it causes end. */
    const inForce = async (slots: PlacedSlotInfo[]) => {
      placed = slots;
      const readsThen = reads;
      watch.slotsChanged();
      await waitUntil(() => Promise.resolve(reads > readsThen), 2000, 'a check');
      await new Promise((resolve) => setImmediate(resolve));
    };
    await inForce([placedWith({ tenants: ['acme'] })]);
    await inForce([]);
    await inForce([placedWith({ tenants: ['initech'] })]);
    await untilSaid(2);
    await watch.close();
    expect(said()).toEqual([
      ['warn', warning('acme')],
      ['warn', warning('acme')],
    ]);
  });

  it('closes at once while a check waits for a slow database, and says nothing of what that check reads', async () => {
    let answer: (names: KnownRuleNames) => void = () => undefined;
    watch = new RuleNameWatch({
      known: () => {
        reads++;
        return new Promise((resolve) => (answer = resolve));
      },
      changeMarker: () => 'unchanged',
      placed: () => new Map([[LOCATION, placed]]),
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      pollMs: 20,
      database: 'SQLite /test.db',
    });
    watch.start();
    await waitUntil(() => Promise.resolve(reads === 1), 2000, 'the first check reading the lists');
    const closed = await Promise.race([
      watch.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500)),
    ]);
    expect(closed).toBe('closed');
    // The database answers after the close: the check ends unobserved, no poll follows.
    answer(known);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([reads, lines]).toEqual([1, []]);
  });
});
