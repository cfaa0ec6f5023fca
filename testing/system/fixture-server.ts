/**
 * Test-only server entry: the product's start-up (server/start-server.ts: same settings from the environment, same
 * factory, demo content, graceful shutdown), plus the slots and resources of a FixtureSpec read from the JSON file
 * named by SLOTS_FIXTURE_FILE. It lets a browser test put a failing remote's component on a page, or a non-form
 * component into a form, without changing the product. Run as `node --import tsx testing/system/fixture-server.ts`
 * (startFixtureServer does it).
 */
import { readFileSync } from 'node:fs';
import { Slot, type SlotEntry, type SlotContent } from '../../shared';
import type { App } from '../../server/app';
import { Field } from '../../server/resources/field';
import { Resource } from '../../server/resources/resource';
import type { SlotRegistrationMap } from '../../server/slots/slot-registry';
import { withDemo } from '../../server/demo';
import { startServer } from '../../server/start-server';
import { FIXTURE_SPEC_ENV, type FixtureResourceSpec, type FixtureSpec } from './fixture-spec';

function slotOf(entry: SlotEntry): Slot {
  return Slot.untyped(entry.component, entry.props, entry.content === undefined ? null : contentOf(entry.content));
}

function contentOf(content: SlotContent): string | Slot | Slot[] {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map(slotOf) : slotOf(content);
}

class FixtureResource extends Resource {
  readonly name: string;
  readonly label: string;

  constructor(private readonly spec: FixtureResourceSpec) {
    super();
    this.name = spec.name;
    this.label = spec.label;
  }

  fields(): ReadonlyArray<Field | Slot> {
    return this.spec.fields.map((item) => {
      if (item.type === 'slot') return Slot.untyped(item.component, item.props ?? {});
      const options = { label: item.label ?? item.name, required: item.required ?? false };
      if (item.input === 'textarea') return Field.textarea(item.name, options);
      if (item.input === 'email') return Field.email(item.name, options);
      if (item.input === 'number') return Field.number(item.name, options);
      if (item.input === 'date') return Field.date(item.name, options);
      return Field.text(item.name, options);
    });
  }

  override listColumns(): readonly string[] {
    return this.spec.listColumns ?? super.listColumns();
  }
}

function readSpec(): FixtureSpec {
  const file = process.env[FIXTURE_SPEC_ENV];
  if (!file) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as FixtureSpec;
}

function registerFixtures(app: App, spec: FixtureSpec): void {
  const slots: Record<string, Slot[]> = {};
  for (const [location, entries] of Object.entries(spec.slots ?? {})) slots[location] = (entries ?? []).map(slotOf);
  app.registerSlots(slots as SlotRegistrationMap);
  const resources = spec.resources ?? [];
  for (const resource of resources) app.registerResource(new FixtureResource(resource));
  if (resources.length > 0) {
    app.registerModule({ name: 'fixtures', label: 'Fixtures', resources: resources.map((resource) => resource.name) });
  }
}

async function seedFixtureRecords(app: App, spec: FixtureSpec): Promise<void> {
  for (const resource of spec.resources ?? []) {
    for (const [tenant, records] of Object.entries(resource.records ?? {})) {
      for (const record of records) await app.records.insert(tenant, resource.name, record);
    }
  }
}

async function main(): Promise<void> {
  const spec = readSpec();
  await startServer(
    process.env,
    withDemo({
      // Fixtures place unknown components and wrong props on purpose, to show what the host does with them.
      slotProblems: 'log',
      configure: (app) => registerFixtures(app, spec),
      afterReady: (app) => seedFixtureRecords(app, spec),
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`The fixture server could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
