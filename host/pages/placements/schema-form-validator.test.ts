import type { RJSFSchema } from '@rjsf/utils';
import { schemaFormValidator } from './schema-form-validator';

// @rjsf/utils' `allOf` merger is ES modules only, which Jest's CommonJS cannot load: these schemas have no `allOf`.
jest.mock('@x0k/json-schema-merge', () => jest.requireActual('../../../testing/host/schema-merger-stub'));
jest.mock('@x0k/json-schema-merge/lib/array', () => jest.requireActual('../../../testing/host/schema-merger-stub'));

describe('schemaFormValidator', () => {
  it("checks a prop's pattern as it is typed, and leaves to the server one that may backtrack without end", () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: {
        colour: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
        // A remote team's: in the browser's engine, each letter typed doubles the time of the check (the server
        // checks it in linear time at the save).
        message: { type: 'string', pattern: '^([a-z ]+)*$' },
      },
    };
    const { errors } = schemaFormValidator.validateFormData({ colour: 'green', message: `${'a'.repeat(20)}!` }, schema);
    expect(errors.map((error) => [error.property, error.name])).toEqual([['.colour', 'pattern']]);
    expect(schemaFormValidator.isValid(schema, { colour: '#00ff7f', message: `${'a'.repeat(20)}!` }, schema)).toBe(
      true,
    );
  });
});
