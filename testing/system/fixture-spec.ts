import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JsonObject, SlotEntry, SlotLocationValue } from '../../shared';

/** An ordinary field of a fixture resource (the subset of Field the tests need). */
export interface FixtureFieldSpec {
  type: 'field';
  name: string;
  input: 'text' | 'textarea' | 'email' | 'number' | 'date';
  label?: string;
  required?: boolean;
}

/** A slot among a fixture resource's fields. */
export interface FixtureFormSlotSpec {
  type: 'slot';
  component: string;
  props?: JsonObject;
}

export interface FixtureResourceSpec {
  name: string;
  label: string;
  /** In form order; must include the `title` and `label` fields every resource has. */
  fields: Array<FixtureFieldSpec | FixtureFormSlotSpec>;
  /** The list's columns (Resource.listColumns); the title and the label when left out. */
  listColumns?: string[];
  /** Records to create per tenant id (`acme`, `globex`) once the demo data is seeded. */
  records?: Readonly<Record<string, JsonObject[]>>;
}

/**
 * What the test entry `testing/system/fixture-server.ts` registers on top of the demo content: more slots (appended,
 * in order, after the demo ones) and more resources (added to a `fixtures` navigation module).
 */
export interface FixtureSpec {
  slots?: Partial<Record<SlotLocationValue, SlotEntry[]>>;
  resources?: FixtureResourceSpec[];
}

/** Environment variable naming the JSON file of a FixtureSpec. */
export const FIXTURE_SPEC_ENV = 'SLOTS_FIXTURE_FILE';

/** Writes the spec into `dir` and returns the environment that hands it to the fixture server. */
export async function writeFixtureSpec(dir: string, spec: FixtureSpec): Promise<Record<string, string>> {
  const file = path.join(dir, 'fixture-spec.json');
  await writeFile(file, `${JSON.stringify(spec, null, 2)}\n`);
  return { [FIXTURE_SPEC_ENV]: file };
}
