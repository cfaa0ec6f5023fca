/**
 * The tenants and flags a document's rules name, against those in the database: unknown ones are blocking problems
 * naming the slot, the unknown names and the known ones, when the check is given the names there are (an edit), and
 * never when it is not (a revision taken as published); warnings in a rule the published document has unchanged.
 */
import pino from 'pino';
import request from 'supertest';
import { Slot, UNKNOWN_RULE_NAME } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { startPlacedRemotesApp, type PlacedRemotesApp } from '../../testing/server/placed-remotes-app';
import { addPlacedRemotes } from '../../testing/server/placements-fixtures';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { ResourceRegistry } from '../resources/resource-registry';
import type { SlotCheckSubjects } from '../slot-check/slot-check';
import { checkPlacements } from './placements-check';
import { parsePlacements } from './placements-document';
import {
  PUBLISHED_RULE_NOTE,
  publishedRules,
  readKnownRuleNames,
  unknownRuleNameProblems,
  type KnownRuleNames,
} from './rule-names-check';

const LOCATION = 'dashboard-before-cards';
const KNOWN: KnownRuleNames = { tenants: ['acme', 'globex'], flags: ['beta', 'new-billing'] };

/** Slot 0 names a tenant and a flag that do not exist, slot 1 only names existing ones, slot 2 has no rule. */
const DOCUMENT = {
  remotes: [
    {
      name: 'team_billing',
      slots: {
        [LOCATION]: [
          {
            component: 'InvoiceBanner',
            props: { title: 'Due' },
            visibleWhen: { $any: [{ tenants: ['acme', 'acmee'] }, { $not: { flags: ['no-such-flag', 'beta'] } }] },
          },
          { component: 'InvoiceNote', visibleWhen: { $all: [{ tenants: ['globex'] }, { flags: ['new-billing'] }] } },
          { component: 'InvoiceNote', id: 'plain-note' },
        ],
      },
    },
  ],
};

const TENANT_PROBLEM = {
  remote: 'team_billing',
  location: LOCATION,
  index: 0,
  component: 'InvoiceBanner',
  kind: UNKNOWN_RULE_NAME,
  path: null,
  message: '"visibleWhen.$any[0].tenants" names the unknown tenant "acmee"; tenants: acme, globex.',
  blocking: true,
};
const FLAG_PROBLEM = {
  ...TENANT_PROBLEM,
  message:
    '"visibleWhen.$any[1].$not.flags" names the unknown flag "no-such-flag"; flags: beta, new-billing. A flag ' +
    'exists once it is set, on or off: npm run flag -- set <name> off.',
};

/** A deep copy to change (a plain object, as a request body is: structuredClone's are of another realm here). */
function copyOf<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('unknownRuleNameProblems', () => {
  it('names each slot whose rule names a tenant or flag that does not exist, and the known ones', () => {
    expect(unknownRuleNameProblems(parsePlacements(DOCUMENT), KNOWN)).toEqual([TENANT_PROBLEM, FLAG_PROBLEM]);
  });

  it('warns, without blocking, of a rule the published document has unchanged; a rule changed or moved blocks', () => {
    const published = publishedRules(parsePlacements(DOCUMENT));
    const moved = copyOf(DOCUMENT);
    // Its props and its place in the list changed: the rule is the same rule of the same slot.
    const slots = moved.remotes[0]!.slots[LOCATION];
    slots.reverse();
    (slots[2] as { props?: unknown }).props = { title: 'Overdue' };
    const warned = (problem: typeof TENANT_PROBLEM) => ({
      ...problem,
      index: 2,
      message: `${problem.message} ${PUBLISHED_RULE_NOTE}`,
      blocking: false,
    });
    expect(unknownRuleNameProblems(parsePlacements(moved), { ...KNOWN, published })).toEqual([
      warned(TENANT_PROBLEM),
      warned(FLAG_PROBLEM),
    ]);
    // Another slot of the component given it, or the rule changed: rules being written.
    const other = copyOf(DOCUMENT);
    const [first, second] = other.remotes[0]!.slots[LOCATION] as Array<{ visibleWhen?: unknown }>;
    second!.visibleWhen = first!.visibleWhen;
    first!.visibleWhen = { $any: [{ tenants: ['acmee'] }, { $not: { flags: ['no-such-flag', 'beta'] } }] };
    expect(
      unknownRuleNameProblems(parsePlacements(other), { ...KNOWN, published }).map(({ index, blocking }) => [
        index,
        blocking,
      ]),
    ).toEqual([
      [0, true],
      [0, true],
      [1, true],
      [1, true],
    ]);
  });

  it('finds nothing wrong when every name exists', () => {
    const known = { tenants: [...KNOWN.tenants, 'acmee'], flags: [...KNOWN.flags, 'no-such-flag'] };
    expect(unknownRuleNameProblems(parsePlacements(DOCUMENT), known)).toEqual([]);
  });
});

describe('with the app', () => {
  let placed: PlacedRemotesApp;
  let testApp: TestApp;
  let subjects: SlotCheckSubjects;

  beforeEach(async () => {
    placed = await startPlacedRemotesApp(LOCATION);
    testApp = placed.testApp;
    const { app } = testApp;
    // No resource: the document places no form slot.
    subjects = {
      slots: app.slots.registry,
      resources: new ResourceRegistry(),
      remoteRegistry: app.remotes.registry,
      allowLists: app.remotes.allowLists,
    };
  });
  afterEach(() => placed.close());

  it('reads the tenants there are, and every flag set at least once, on or off, anywhere', async () => {
    const { app } = testApp;
    await app.tenants.save({ id: 'globex', name: 'Globex' });
    await app.tenants.save({ id: 'acme', name: 'Acme' });
    await app.flags.set('new-billing', true);
    await app.flags.set('beta', false, 'acme');
    await app.flags.set('new-billing', false, 'globex');
    expect(await readKnownRuleNames(app.tenants, app.flags)).toEqual({
      tenants: ['globex', 'acme'],
      flags: ['beta', 'new-billing'],
    });
    await app.flags.unset('beta', 'acme');
    expect((await readKnownRuleNames(app.tenants, app.flags)).flags).toEqual(['new-billing']);
  });

  it('reports unknown names before the slot check, blocking, when given the names there are', () => {
    const file = testApp.app.remotes.registry.config;
    const untitled = copyOf(DOCUMENT);
    delete (untitled.remotes[0]!.slots[LOCATION][0] as { props?: unknown }).props;
    const problems = checkPlacements(subjects, file, parsePlacements(untitled), KNOWN);
    expect(problems.map(({ kind, index }) => [kind, index])).toEqual([
      [UNKNOWN_RULE_NAME, 0],
      [UNKNOWN_RULE_NAME, 0],
      ['props-invalid', 0],
    ]);
    expect(problems.slice(0, 2)).toEqual([TENANT_PROBLEM, FLAG_PROBLEM]);
  });

  it('reports them beside the shape problems of a document whose shape is wrong', () => {
    const file = testApp.app.remotes.registry.config;
    const misshapen = copyOf(DOCUMENT) as { remotes: Array<{ slots: Record<string, unknown[]> }> };
    misshapen.remotes[0]!.slots[LOCATION]!.push({ component: 'InvoiceNote', id: 'late', priority: 'high' });
    const problems = checkPlacements(subjects, file, parsePlacements(misshapen), KNOWN);
    expect(problems.map(({ kind, index }) => [kind, index])).toEqual([
      ['invalid-document', 3],
      [UNKNOWN_RULE_NAME, 0],
      [UNKNOWN_RULE_NAME, 0],
    ]);
  });

  it('leaves the names unchecked without them: a revision already published is taken as it is', () => {
    const problems = checkPlacements(subjects, testApp.app.remotes.registry.config, parsePlacements(DOCUMENT));
    expect(problems).toEqual([]);
  });
});

/**
 * The warnings logged in `lines`, once at least `count` of them are (or after 2 s): the check reads the database in
 * the background, without holding anything up.
 */
function warningsIn(lines: readonly string[]): (count: number) => Promise<string[]> {
  const warned = () =>
    lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level === 40)
      .map((line) => line.msg);
  return async (count) => {
    for (let waited = 0; warned().length < count && waited < 2000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return warned();
  };
}

describe('the slots in force, once the app is started and after a reload', () => {
  it('warns of code and REMOTES_CONFIG slots whose rules name tenants or flags that do not exist, once each', async () => {
    const dist = createFixtureDist();
    addPlacedRemotes(dist);
    const configWith = (flag: string) =>
      JSON.stringify({
        remotes: [
          {
            name: 'team_billing',
            slots: { [LOCATION]: [{ component: 'InvoiceNote', visibleWhen: { flags: [flag] } }] },
          },
        ],
      });
    const configFile = dist.write('remotes.json', configWith('no-such-flag'));
    const lines: string[] = [];
    const testApp = await createTestApp({
      distDir: dist.dir,
      env: { REMOTES_CONFIG: configFile },
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      configure: (app) =>
        app.registerSlots({
          [LOCATION]: [
            Slot.make('Welcome').placed({ id: 'acmee-only', visibleWhen: { tenants: ['acmee'] } }),
            Slot.make('Welcome').placed({ id: 'everyone', visibleWhen: { roles: ['editor'] } }),
          ],
        }),
    });
    try {
      const warnings = warningsIn(lines);
      testApp.app.checkRuleNames();
      expect(await warnings(2)).toEqual([
        `Slot "Welcome" at ${LOCATION} (registered by code): "visibleWhen.tenants" names the unknown tenant "acmee"; ` +
          'tenants: none yet. Its rule never holds for that name: the slot stays hidden where it should show.',
        `Slot "InvoiceNote" at ${LOCATION} (placed for team_billing by REMOTES_CONFIG): ` +
          '"visibleWhen.flags" names the unknown flag "no-such-flag"; flags: none yet. A flag exists once it is set, ' +
          'on or off: npm run flag -- set <name> off. Its rule never holds for that name: the slot stays hidden ' +
          'where it should show.',
      ]);

      // A reload placing a slot with another unknown flag: that one is said; those said already are not again.
      await testApp.app.flags.set('no-such-flag', true);
      dist.write('remotes.json', configWith('still-unset'));
      expect(await testApp.app.reloadRemotesConfig()).toBe(true);
      const after = (await warnings(3)).slice(2);
      expect(after).toHaveLength(1);
      expect(after[0]).toContain('names the unknown flag "still-unset"; flags: no-such-flag.');
    } finally {
      await testApp.close();
      dist.remove();
    }
  });

  it('checks an app used directly on its first request: names seeded after ready() are known, the others said once', async () => {
    const lines: string[] = [];
    const testApp = await createTestApp({
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      configure: (app) =>
        app.registerSlots({
          [LOCATION]: [
            Slot.make('Welcome').placed({ id: 'acme-only', visibleWhen: { tenants: ['acme'] } }),
            Slot.make('Welcome').placed({ id: 'beta-only', visibleWhen: { flags: ['beta'] } }),
            Slot.make('Welcome').placed({ id: 'acmee-only', visibleWhen: { tenants: ['acmee'] } }),
          ],
        }),
    });
    try {
      const { app } = testApp;
      // What an entry seeds once the app is ready, before it listens (the demo's tenants).
      await app.tenants.save({ id: 'acme', name: 'Acme' });
      await app.flags.set('beta', false);
      const warnings = warningsIn(lines);
      expect(await warnings(0)).toEqual([]);

      await request(app.handler).get('/healthz').expect(200);
      await request(app.handler).get('/healthz').expect(200);
      expect(await warnings(1)).toEqual([expect.stringContaining('names the unknown tenant "acmee"; tenants: acme.')]);
      // A later change of the slots in force is checked again: nothing new to say.
      expect(await app.reloadRemotesConfig()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await warnings(1)).toHaveLength(1);
    } finally {
      await testApp.close();
    }
  });

  it('leaves a check under way unobserved when the app closes right after its start: nothing said of it after', async () => {
    const lines: string[] = [];
    const testApp = await createTestApp({
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
      configure: (app) =>
        app.registerSlots({ [LOCATION]: Slot.make('Welcome').placed({ visibleWhen: { tenants: ['acme'] } }) }),
    });
    testApp.app.checkRuleNames();
    await testApp.close();
    const atClose = [...lines];
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines).toEqual(atClose);
    // Its read ended against a closed database, on purpose: no failure to warn of.
    const said = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(said.filter(({ level, msg }) => level >= 40 && !msg.includes('the unknown tenant "acme"'))).toEqual([]);
  });
});
