import { propsSchema, Type } from './schema';

describe('propsSchema', () => {
  it('is an object of the given props and no other', () => {
    expect(propsSchema({ name: Type.String(), count: Type.Optional(Type.Integer()) })).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string' }, count: { type: 'integer' } },
      required: ['name'],
    });
  });

  it.each([
    ['a prop', () => propsSchema({ dueOn: Type.Date() }), 'props.dueOn is of type "Date"'],
    [
      'a list item',
      () => propsSchema({ rows: Type.Array(Type.Object({ at: Type.Date() })) }),
      'props.rows[].at is of type "Date"',
    ],
    [
      'a union branch',
      () => propsSchema({ id: Type.Union([Type.String(), Type.BigInt()]) }),
      'props.id is of type "bigint"',
    ],
    [
      'an optional prop',
      () => propsSchema({ blob: Type.Optional(Type.Uint8Array()) }),
      'props.blob is of type "Uint8Array"',
    ],
  ])('refuses a type JSON cannot carry in %s, which the product would refuse at every placement', (_, make, named) => {
    expect(make).toThrow(named);
    expect(make).toThrow("Use a JSON type instead (a date: Type.String({ format: 'date' })");
  });

  it('takes a pattern the product runs, and refuses one it does not (lookaround, backreferences), naming it', () => {
    expect(propsSchema({ colour: Type.String({ pattern: '^#[0-9a-f]{6}$' }) }).properties.colour).toMatchObject({
      pattern: '^#[0-9a-f]{6}$',
    });
    // JavaScript's own syntax, which the product writes for RE2.
    expect(() => propsSchema({ name: Type.String({ pattern: '^[\\u0020-\\u007E]*$|^\\p{Letter}+$' }) })).not.toThrow();
    expect(() => propsSchema({ user: Type.String({ pattern: '^(?!admin$).+$' }) })).toThrow(
      'propsSchema: props.user has the pattern "^(?!admin$).+$", which the product does not run: lookaround ' +
        '((?=…), (?!…), (?<=…), (?<!…)) cannot be run in linear time. The product checks props against patterns in ' +
        'linear time (RE2), and refuses such a schema.',
    );
    expect(() =>
      propsSchema({ rows: Type.Array(Type.Object({ code: Type.String({ pattern: '^(a)\\1$' }) })) }),
    ).toThrow('props.rows[].code has the pattern "^(a)\\\\1$", which the product does not run: a backreference');
    // A tuple's items, each at its place.
    expect(() =>
      propsSchema({ pair: Type.Tuple([Type.String({ pattern: '^(?!admin$).+$' }), Type.Number()]) }),
    ).toThrow('props.pair[0] has the pattern');
    expect(() => propsSchema({ pair: Type.Tuple([Type.Date(), Type.Number()]) })).toThrow(
      'props.pair[0] is of type "Date"',
    );
  });
});
