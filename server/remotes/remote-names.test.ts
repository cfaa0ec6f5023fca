import { JSON_DEPTH_MAX } from '../../shared';
import { parseRemoteDescriptorFile } from './remote-names';

/** `{"type":"object","properties":{"a":…}}`, `levels` times: two JSON levels each. */
function nestedSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('a remote’s slots-remote.json', () => {
  const file = (schema: Record<string, unknown>) => ({
    name: 'team_x',
    components: ['Zed'],
    formComponents: [],
    props: { Zed: schema },
  });

  it('refuses a props schema nested deeper than JSON_DEPTH_MAX, naming the component', () => {
    // 10,000 levels: a team's file the server stored by serializing it, which overflowed its stack (a 500).
    expect(() =>
      parseRemoteDescriptorFile(file(nestedSchema(10_000)), 'https://cdn.example/slots-remote.json'),
    ).toThrow(
      `https://cdn.example/slots-remote.json: "props"."Zed" nests more than ${JSON_DEPTH_MAX} arrays and objects deep; ` +
        'a props schema needs a few levels per level of its props.',
    );
  });

  it('takes one within the limit', () => {
    // 49 levels of props (98 JSON levels) and the innermost schema: 99.
    const schema = nestedSchema((JSON_DEPTH_MAX - 2) / 2);
    expect(parseRemoteDescriptorFile(file(schema), 'slots-remote.json').props).toEqual({ Zed: schema });
  });
});
