import {
  defineRemote,
  InvalidRemoteDescriptorError,
  type DefineRemoteInput,
  type PropsOf,
  type RemoteDefinition,
} from './index';
import { propsSchema, Type } from './schema';

describe('defineRemote', () => {
  const remote = defineRemote({
    name: 'team_billing',
    components: {
      InvoiceBanner: propsSchema({ amountDue: Type.Number(), currency: Type.Optional(Type.String()) }),
      InvoiceField: propsSchema({ field: Type.String() }),
    },
    formComponents: ['InvoiceField'],
  });

  it('derives the descriptor from the declaration: component names, and each schema as plain JSON Schema', () => {
    expect(remote.components).toEqual(['InvoiceBanner', 'InvoiceField']);
    expect(remote.formComponents).toEqual(['InvoiceField']);
    expect(JSON.parse(JSON.stringify(remote.props))).toEqual({
      InvoiceBanner: {
        type: 'object',
        additionalProperties: false,
        properties: { amountDue: { type: 'number' }, currency: { type: 'string' } },
        required: ['amountDue'],
      },
      InvoiceField: {
        type: 'object',
        additionalProperties: false,
        properties: { field: { type: 'string' } },
        required: ['field'],
      },
    });
    expect(Object.isFrozen(remote)).toBe(true);
  });

  it('still takes its input under the deprecated name RemoteDefinition, for one release', () => {
    const components = { Note: propsSchema({ text: Type.String() }) };
    const input: DefineRemoteInput<typeof components> = { name: 'team_notes', components, formComponents: [] };
    const old: RemoteDefinition<typeof components> = input;
    expect(defineRemote(old).components).toEqual(['Note']);
  });

  it('gives each component the props type of its schema', () => {
    const props: PropsOf<typeof remote, 'InvoiceBanner'> = { amountDue: 12.5 };
    // @ts-expect-error amountDue is a number: the type comes from the schema
    const wrong: PropsOf<typeof remote, 'InvoiceBanner'> = { amountDue: 'lots' };
    expect([props, wrong]).toHaveLength(2);
  });

  it('says what a remote or component name may be, with a name it takes, not only the pattern', () => {
    const note = propsSchema({ text: Type.String() });
    expect(() => defineRemote({ name: 'billing-remote', components: { Note: note }, formComponents: [] })).toThrow(
      new InvalidRemoteDescriptorError(
        'Remote descriptor "billing-remote" is invalid: name "billing-remote" is not a remote name: letters, ' +
          'digits and _, starting with a letter or _, 64 characters at most (e.g. team_billing; ' +
          '/^[A-Za-z_][A-Za-z0-9_]{0,63}$/).',
      ),
    );
    expect(() => defineRemote({ name: 'team_x', components: { invoice_banner: note }, formComponents: [] })).toThrow(
      new InvalidRemoteDescriptorError(
        'Remote descriptor "team_x" is invalid: component "invoice_banner" is not a component name: a capital ' +
          'letter, then letters and digits only, 128 characters at most (e.g. "InvoiceBanner" in ' +
          'components/InvoiceBanner.tsx; /^[A-Z][A-Za-z0-9]{0,127}$/).',
      ),
    );
    expect(() => defineRemote({ name: 'team_x', components: { '2fa': note }, formComponents: [] })).toThrow(
      '(e.g. "Component2fa" in components/Component2fa.tsx;',
    );
  });

  it('names the components a misspelled form component could be', () => {
    const note = propsSchema({ text: Type.String() });
    // The type check refuses it too (npm run build and npm test run it first; npm run dev does not).
    // @ts-expect-error "Notes" is not among the components
    expect(() => defineRemote({ name: 'team_x', components: { Note: note }, formComponents: ['Notes'] })).toThrow(
      new InvalidRemoteDescriptorError(
        'Remote descriptor "team_x" is invalid: form component "Notes" is not in components (Note): formComponents ' +
          'lists some of the components declared above it.',
      ),
    );
  });

  it('refuses a schema declaring key or ref, and a props schema that is not an object', () => {
    expect(() =>
      defineRemote({ name: 'team_x', components: { Row: propsSchema({ key: Type.String() }) }, formComponents: [] }),
    ).toThrow(
      new InvalidRemoteDescriptorError(
        'Remote descriptor "team_x" is invalid: component "Row" declares the prop "key", which React keeps for itself.',
      ),
    );
    expect(() => defineRemote({ name: 'team_x', components: { Row: Type.String() }, formComponents: [] })).toThrow(
      'the props schema of "Row" must be an object schema (Type.Object)',
    );
  });
});
