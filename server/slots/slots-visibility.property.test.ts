/**
 * Property: whatever is registered where (random component names, random JSON props with tricky keys, random
 * public and protected locations), `GET /slots` carries public locations only and never a byte of a protected
 * slot: its component name, props or content.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { RESERVED_PROP_NAMES, Slot, SlotLocation, type JsonValue, type SlotsPayload } from '../../shared';
import { createTestApp } from '../../testing/server/test-app';

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
}

const publicRegistration: fc.Arbitrary<Registration> = fc.record({
  location: fc.constantFrom(...PUBLIC),
  component: fc.stringMatching(/^Pub[A-Za-z0-9_./-]{0,12}$/),
  props,
  content: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
});

/** Protected slots carry the marker in their name, in their props (at a random depth) and in their content. */
const protectedRegistration: fc.Arbitrary<Registration> = fc
  .record({
    location: fc.constantFrom(...PROTECTED),
    suffix: fc.stringMatching(/^[A-Za-z0-9]{0,8}$/),
    props,
    key: anyKey,
    content: fc.boolean(),
  })
  .map(({ location, suffix, props: base, key, content }) => ({
    location,
    component: `Secret${suffix}`,
    props: { ...base, marker: MARKER, nested: { [key === '__proto__' ? 'deep' : key]: [MARKER] } },
    content: content ? `content ${MARKER}` : null,
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
        async (registrations, calls) => {
          const testApp = await createTestApp();
          try {
            // Registered over several calls, as an application built from modules would.
            const chunk = Math.ceil(registrations.length / calls);
            for (let start = 0; start < registrations.length; start += chunk) {
              const map: Record<string, Slot[]> = {};
              for (const registration of registrations.slice(start, start + chunk)) {
                (map[registration.location.value] ??= []).push(
                  Slot.make(registration.component, registration.props, registration.content),
                );
              }
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

            // Every public registration is there, in order, exactly as registered.
            for (const location of PUBLIC) {
              const expected = registrations
                .filter((registration) => registration.location === location)
                .map(
                  (registration) =>
                    JSON.parse(
                      JSON.stringify(Slot.make(registration.component, registration.props, registration.content)),
                    ) as unknown,
                );
              expect(payload.slots[location.value] ?? []).toEqual(expected);
            }

            // Not vacuous: the protected slots were registered (the full view used by /meta carries them).
            if (registrations.some((registration) => !registration.location.isPublic())) {
              expect(testApp.app.slotsPayload.current().allSlots).toContain(MARKER);
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
