/**
 * Property: whatever is registered where (random component names, random JSON props with tricky keys, random
 * public and protected locations, random priorities, random `visibleWhen` rules on protected slots), `GET /slots`
 * carries public locations only and never a byte of a protected slot: its component name, props or content; the
 * `/meta` body of a random viewer never carries a slot whose rule fails for them, and carries every one whose rule
 * holds; both keep the order of the priorities (registration order among equal ones).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import {
  DEFAULT_SLOT_PRIORITY,
  RESERVED_PROP_NAMES,
  Slot,
  SlotLocation,
  STAFF_PERMISSIONS,
  STAFF_ROLES,
  type JsonValue,
  type MetaPayload,
  type SlotsPayload,
  type VisibilityRule,
} from '../../shared';
import { createTestApp } from '../../testing/server/test-app';
import { documentedRuleHolds } from '../../testing/server/visibility-oracle';
import { ruleHolds, type Viewer } from './visibility-rule';

const MARKER = `PROTECTED-${randomUUID()}`;
const PUBLIC = SlotLocation.cases().filter((location) => location.isPublic());
const PROTECTED = SlotLocation.cases().filter((location) => !location.isPublic());

const trickyKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  'slots',
  'login-before-form',
  'tenant-switcher',
);
const anyKey = fc.oneof(trickyKey, fc.string({ maxLength: 8 }));
const jsonLeaf = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const jsonTree: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(anyKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;
// Top-level `key` and `ref` are refused at registration (React keeps them); deeper down they are ordinary data.
const propKey = anyKey.filter((key) => !RESERVED_PROP_NAMES.includes(key));
const props = fc.dictionary(propKey, jsonTree, { maxKeys: 5 }) as fc.Arbitrary<Record<string, JsonValue>>;

interface Registration {
  location: SlotLocation;
  component: string;
  props: Record<string, JsonValue>;
  content: string | null;
  priority?: number | undefined;
  rule?: VisibilityRule | undefined;
}

// Every role an account can hold: a rule may name no other.
const ROLES = [...STAFF_ROLES];
const TENANTS = ['acme', 'globex', 'initech'];
const FLAGS = ['new-billing', 'beta'];
const priority = fc.option(fc.integer({ min: -3, max: 100 }), { nil: undefined });
const rule: fc.Arbitrary<VisibilityRule> = fc.letrec<{ rule: VisibilityRule }>((tie) => ({
  rule: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ roles: fc.uniqueArray(fc.constantFrom(...ROLES), { minLength: 1 }) }),
    fc.record({ permissions: fc.uniqueArray(fc.constantFrom(...STAFF_PERMISSIONS), { minLength: 1 }) }),
    fc.record({ tenants: fc.uniqueArray(fc.constantFrom(...TENANTS), { minLength: 1 }) }),
    fc.record({ flags: fc.uniqueArray(fc.constantFrom(...FLAGS), { minLength: 1 }) }),
    fc.record({ $all: fc.array(tie('rule'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ $any: fc.array(tie('rule'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ $not: tie('rule') }),
  ),
})).rule;
const viewer = fc.record({
  roles: fc.subarray(ROLES),
  permissions: fc.subarray([...STAFF_PERMISSIONS]),
  tenant: fc.constantFrom(...TENANTS),
  flags: fc.subarray(FLAGS).map((on): ReadonlySet<string> => new Set(on)),
}) satisfies fc.Arbitrary<Viewer>;

function slotOf(registration: Registration, index: number): Slot {
  const slot = Slot.make(registration.component, { ...registration.props, registration: index }, registration.content);
  const placement = {
    ...(registration.priority === undefined ? {} : { priority: registration.priority }),
    ...(registration.rule === undefined ? {} : { visibleWhen: registration.rule }),
  };
  return Object.keys(placement).length === 0 ? slot : slot.placed(placement);
}

/** The registrations of one location in the order priorities give (stable: registration order among equals). */
function expectedOrder(registrations: readonly Registration[], location: SlotLocation): number[] {
  return registrations
    .map((registration, index) => ({ registration, index }))
    .filter(({ registration }) => registration.location === location)
    .sort(
      (a, b) =>
        (a.registration.priority ?? DEFAULT_SLOT_PRIORITY) - (b.registration.priority ?? DEFAULT_SLOT_PRIORITY) ||
        a.index - b.index,
    )
    .map(({ index }) => index);
}

const publicRegistration: fc.Arbitrary<Registration> = fc.record({
  location: fc.constantFrom(...PUBLIC),
  component: fc.stringMatching(/^Pub[A-Za-z0-9_./-]{0,12}$/),
  props,
  content: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
  priority,
});

/** Protected slots carry the marker in their name, in their props (at a random depth) and in their content. */
const protectedRegistration: fc.Arbitrary<Registration> = fc
  .record({
    location: fc.constantFrom(...PROTECTED),
    suffix: fc.stringMatching(/^[A-Za-z0-9]{0,8}$/),
    props,
    key: anyKey,
    content: fc.boolean(),
    priority,
    rule: fc.option(rule, { nil: undefined }),
  })
  .map(({ location, suffix, props: base, key, content, priority: given, rule: visibleWhen }) => ({
    location,
    component: `Secret${suffix}`,
    props: { ...base, marker: MARKER, nested: { [key === '__proto__' ? 'deep' : key]: [MARKER] } },
    content: content ? `content ${MARKER}` : null,
    priority: given,
    rule: visibleWhen,
  }));

describe('GET /slots under random registrations', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it('never carries a protected location, a protected component or any protected props', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(publicRegistration, protectedRegistration), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 3 }),
        viewer,
        async (registrations, calls, who) => {
          const testApp = await createTestApp();
          try {
            // Registered over several calls, as an application built from modules would.
            const chunk = Math.ceil(registrations.length / calls);
            for (let start = 0; start < registrations.length; start += chunk) {
              const map: Record<string, Slot[]> = {};
              registrations.slice(start, start + chunk).forEach((registration, offset) => {
                (map[registration.location.value] ??= []).push(slotOf(registration, start + offset));
              });
              testApp.app.registerSlots(map);
            }

            const response = await request(testApp.app.handler).get('/slots');
            expect(response.status).toBe(200);
            expect(response.text).not.toContain(MARKER);
            expect(response.text).not.toMatch(/"component":"Secret/);
            const payload = JSON.parse(response.text) as SlotsPayload;
            for (const location of Object.keys(payload.slots)) {
              expect(SlotLocation.from(location).isPublic()).toBe(true);
            }

            // Every public registration is there, in the order of the priorities, exactly as registered.
            for (const location of PUBLIC) {
              const expected = expectedOrder(registrations, location).map(
                (index) => JSON.parse(JSON.stringify(slotOf(registrations[index]!, index))) as unknown,
              );
              expect(payload.slots[location.value] ?? []).toEqual(expected);
            }

            // The viewer's /meta: every slot whose rule holds for them, in order, and none whose rule fails (as the
            // documented rules say, not as the product's own evaluator computes it).
            const body = await testApp.app.meta.body.body({ id: who.tenant, name: who.tenant }, who);
            const meta = JSON.parse(Buffer.concat(body).toString('utf8')) as MetaPayload;
            for (const location of SlotLocation.cases()) {
              const expected = expectedOrder(registrations, location).filter((index) => {
                const visibleWhen = registrations[index]!.rule;
                return visibleWhen === undefined || documentedRuleHolds(visibleWhen, who);
              });
              const carried = (meta.slots[location.value] ?? []).map((entry) => entry.props.registration);
              expect(carried).toEqual(expected);
            }

            // Not vacuous: the protected slots were registered (the full view used by /meta carries them).
            if (registrations.some((registration) => !registration.location.isPublic())) {
              expect(testApp.app.slots.payload.current().allSlots).toContain(MARKER);
            }
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          } finally {
            await testApp.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});

describe('visibleWhen as documented (docs/reference/placements.md#visibility-rules)', () => {
  it('agrees with the documented rules on random rules and viewers', () => {
    fc.assert(
      fc.property(rule, viewer, (visibleWhen, who) => {
        expect(ruleHolds(visibleWhen, who)).toBe(documentedRuleHolds(visibleWhen, who));
      }),
      { numRuns: 2000 },
    );
  });

  it('sends a slot whose $any holds by one part only, not one whose $all fails by one part', async () => {
    const acme = { tenants: ['acme'] };
    const beta = { flags: ['beta'] };
    const testApp = await createTestApp();
    try {
      testApp.app.registerSlots({
        [PROTECTED[0]!.value]: [
          Slot.make('AnyShown', {}).placed({ visibleWhen: { $any: [acme, beta] } }),
          Slot.make('AllHidden', {}).placed({ visibleWhen: { $all: [acme, beta] } }),
          Slot.make('NotShown', {}).placed({ visibleWhen: { $not: beta } }),
        ],
      });
      const who: Viewer = { roles: [], permissions: [], tenant: 'acme', flags: new Set() };
      const body = await testApp.app.meta.body.body({ id: 'acme', name: 'acme' }, who);
      const meta = JSON.parse(Buffer.concat(body).toString('utf8')) as MetaPayload;
      expect((meta.slots[PROTECTED[0]!.value] ?? []).map((entry) => entry.component)).toEqual(['AnyShown', 'NotShown']);
    } finally {
      await testApp.close();
    }
  });
});
