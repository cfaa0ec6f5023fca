import { propsSchema, Type } from '../schema';
import { exampleProps } from './example-props';

const json = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Parameters<typeof exampleProps>[0];

describe('exampleProps', () => {
  it("takes the schema's first example as a whole", () => {
    const schema = propsSchema({ name: Type.String() }, { examples: [{ name: 'world' }, { name: 'other' }] });
    expect(exampleProps(json(schema))).toEqual({ name: 'world' });
  });

  it("else each prop's example, default, constant or first allowed value, else a plain value of its type", () => {
    const schema = propsSchema({
      name: Type.String({ examples: ['Ada'] }),
      count: Type.Number({ default: 3 }),
      kind: Type.Literal('invoice'),
      currency: Type.Union([Type.Literal('EUR'), Type.Literal('USD')]),
      title: Type.String(),
      total: Type.Integer({ minimum: 5 }),
      shown: Type.Boolean(),
      tags: Type.Array(Type.String()),
      link: Type.Object({ href: Type.String() }),
      note: Type.Optional(Type.String()),
    });
    expect(exampleProps(json(schema))).toEqual({
      name: 'Ada',
      count: 3,
      kind: 'invoice',
      currency: 'EUR',
      title: 'title',
      total: 5,
      shown: false,
      tags: [],
      link: { href: 'href' },
      note: 'note',
    });
  });

  it('is empty without a schema', () => {
    expect(exampleProps(undefined)).toEqual({});
  });
});
