import { spawnSync } from 'node:child_process';
import { Slot, type JsonSchema } from '../../shared';
import { formatSlotProblem, placedSlots, SlotContract, SlotContractError, type ContractRemotes } from './slot-contract';

/** The JSON Schema TypeBox writes for `propsSchema({ amountDue: Type.Number(), currency: Type.Optional(...) })`. */
const INVOICE_BANNER: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    amountDue: { type: 'number' },
    currency: {
      anyOf: [
        { const: 'EUR', type: 'string' },
        { const: 'USD', type: 'string' },
      ],
    },
    links: { type: 'array', items: { type: 'object', properties: { href: { type: 'string' } }, required: ['href'] } },
  },
  required: ['amountDue'],
};

const REMOTES: ContractRemotes = {
  known: [
    {
      name: 'team_billing',
      components: ['InvoiceBanner', 'InvoiceField'],
      formComponents: ['InvoiceField'],
      props: { InvoiceBanner: INVOICE_BANNER },
    },
    // A plain remoteEntry.js remote: no schemas, props checked as JSON only.
    { name: 'legacy_widgets', components: ['Clock'] },
  ],
  disabled: [{ name: 'team_marketing', components: ['LoginNotice'] }],
  waiting: [],
};

function problemsOf(slot: Slot, remotes: ContractRemotes = REMOTES, remote: string | null = null): string[] {
  const source = remote === null ? 'code' : 'configuration';
  return new SlotContract()
    .check(placedSlots('global-before-content', [slot], source, remote), remotes)
    .map(formatSlotProblem);
}

describe('SlotContract', () => {
  it('accepts props its schema accepts, and any JSON props of a component without schema', () => {
    expect(problemsOf(Slot.make('InvoiceBanner', { amountDue: 12.5, currency: 'EUR' }))).toEqual([]);
    expect(problemsOf(Slot.make('Clock', { zone: 'UTC', anything: [1, 2] }))).toEqual([]);
  });

  it('reports an unknown component', () => {
    expect(problemsOf(Slot.make('InvoiceBaner', { amountDue: 1 }))).toEqual([
      'InvoiceBaner at global-before-content[0] (code): no remote provides "InvoiceBaner"; did you mean ' +
        '"InvoiceBanner" (remote "team_billing")?',
    ]);
    expect(problemsOf(Slot.make('InvoiceBaner'), REMOTES, 'team_billing')).toEqual([
      'InvoiceBaner at global-before-content[0] (configuration, remote "team_billing"): remote "team_billing" ' +
        'provides no component "InvoiceBaner" (it provides InvoiceBanner, InvoiceField)',
    ]);
  });

  it('reports a component of a disabled remote', () => {
    expect(problemsOf(Slot.make('LoginNotice', { title: 'x' }))).toEqual([
      'LoginNotice at global-before-content[0] (code, remote "team_marketing"): remote "team_marketing" provides ' +
        '"LoginNotice" but is disabled ("enabled": false in REMOTES_CONFIG)',
    ]);
  });

  it('reports every prop that fails the schema with its JSON path and the expected type', () => {
    const slot = Slot.make('InvoiceBanner', { amountDue: 'lots', currency: 'GBP', links: [{ url: 'x' }], titel: 'x' });
    expect(problemsOf(slot)).toEqual([
      'InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.titel is not a prop of ' +
        'InvoiceBanner (its props: amountDue, currency, links)',
      'InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.amountDue must be number, ' +
        'got "lots"',
      'InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.currency must be "EUR" or ' +
        '"USD", got "GBP"',
      'InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.links[0].href is required ' +
        '(string)',
    ]);
  });

  it("checks the formats a schema names, as the host and the kit's slot tests do", () => {
    const due: JsonSchema = {
      type: 'object',
      additionalProperties: false,
      properties: { dueOn: { type: 'string', format: 'date' }, contact: { type: 'string', format: 'email' } },
    };
    const remotes: ContractRemotes = {
      ...REMOTES,
      known: [{ name: 'team_billing', components: ['Due'], formComponents: [], props: { Due: due } }],
    };
    expect(problemsOf(Slot.make('Due', { dueOn: '2026-11-27', contact: 'ann@example.com' }), remotes)).toEqual([]);
    expect(problemsOf(Slot.make('Due', { dueOn: 'yesterday', contact: 'ann' }), remotes)).toEqual([
      'Due at global-before-content[0] (code, remote "team_billing"): props.dueOn must match format "date", got ' +
        '"yesterday"',
      'Due at global-before-content[0] (code, remote "team_billing"): props.contact must match format "email", got ' +
        '"ann"',
    ]);
  });

  it('reports a missing prop with the type it must have', () => {
    expect(problemsOf(Slot.make('InvoiceBanner', {}))).toEqual([
      'InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.amountDue is required (number)',
    ]);
  });

  it('reports the reserved prop names key and ref, which React would keep from the component', () => {
    // Slot.make refuses them already; a slot object carrying one (made some other way) is still caught here.
    const slot = Slot.make('Clock', { zone: 'UTC' });
    const forged = Object.assign(Object.create(Slot.prototype) as Slot, { ...slot, props: { key: 'k', ref: 'r' } });
    expect(problemsOf(forged)).toEqual([
      'Clock at global-before-content[0] (code): props.key is reserved by React and never reaches the component',
      'Clock at global-before-content[0] (code): props.ref is reserved by React and never reaches the component',
    ]);
    expect(() => Slot.make('Clock', { key: 'k' })).toThrow('the prop "key" is reserved by React');
  });

  it('checks content slots with their position', () => {
    const slot = Slot.make('Clock', {}, [Slot.make('InvoiceBanner', { amountDue: 1 }), Slot.make('Nobody')]);
    expect(problemsOf(slot)).toEqual([
      'Nobody at global-before-content[0].content[1] (code): no remote provides "Nobody"',
    ]);
  });

  it('reports a form slot whose component is not a form component', () => {
    const problems = new SlotContract().check(
      [
        {
          location: 'resource form "invoices"',
          position: '[2]',
          slot: Slot.make('InvoiceBanner', { amountDue: 1 }),
          source: 'code',
          remote: null,
          inForm: true,
        },
      ],
      REMOTES,
    );
    expect(problems.map(formatSlotProblem)).toEqual([
      'InvoiceBanner at resource form "invoices"[2] (code, remote "team_billing"): remote "team_billing" does not ' +
        'list "InvoiceBanner" among its formComponents, so a form cannot render it (its form components: ' +
        'InvoiceField; its team lists a component written for forms in formComponents in its remote.ts)',
    ]);
  });

  it('warns, without refusing, of a form component placed at a page location', () => {
    const [problem, ...others] = new SlotContract().check(
      placedSlots('resource-before-form', [Slot.make('InvoiceField')], 'code'),
      REMOTES,
    );
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ kind: 'form-component-outside-form', blocking: false });
    expect(formatSlotProblem(problem!)).toBe(
      'InvoiceField at resource-before-form[0] (code, remote "team_billing"): is one of remote "team_billing"\'s ' +
        'formComponents: outside a resource form it receives no `resource` or `formContext`, and fails if it reads them',
    );
  });

  it('does not block on a component a remote that has not answered may provide', () => {
    const waiting: ContractRemotes = { ...REMOTES, waiting: [{ name: 'team_down', reason: 'answered 404' }] };
    const [unknown] = new SlotContract().check(
      placedSlots('header-banner', [Slot.make('DownWidget')], 'code'),
      waiting,
    );
    expect(unknown).toMatchObject({ kind: 'unknown-component', blocking: false });
    expect(problemsOf(Slot.make('DownWidget'), waiting, 'team_down')).toEqual([
      'DownWidget at global-before-content[0] (configuration, remote "team_down"): remote "team_down" is not ' +
        'available: answered 404',
    ]);
  });

  it('reports a schema that is no JSON Schema instead of throwing', () => {
    const broken: ContractRemotes = {
      known: [{ name: 'team_x', components: ['Broken'], props: { Broken: { type: 'no-such-type' } } }],
      disabled: [],
      waiting: [],
    };
    expect(problemsOf(Slot.make('Broken'), broken)[0]).toMatch(
      /^Broken at global-before-content\[0\] \(code, remote "team_x"\): its props schema is not a valid JSON Schema/,
    );
  });

  describe("a team's patterns", () => {
    const withPattern = (pattern: string): ContractRemotes => ({
      known: [
        {
          name: 'team_x',
          components: ['Notice'],
          props: { Notice: { type: 'object', properties: { message: { type: 'string', pattern } } } },
        },
      ],
      disabled: [],
      waiting: [],
    });

    it('checks a prop against its pattern', () => {
      const colour = withPattern('^#[0-9a-f]{6}$');
      expect(problemsOf(Slot.make('Notice', { message: '#00ff7f' }), colour)).toEqual([]);
      expect(problemsOf(Slot.make('Notice', { message: 'green' }), colour)).toEqual([
        'Notice at global-before-content[0] (code, remote "team_x"): props.message must match pattern ' +
          '"^#[0-9a-f]{6}$", got "green"',
      ]);
    });

    it('runs a pattern that backtracks without end in JavaScript in linear time', () => {
      // JavaScript's engine tries 2^40 ways of splitting these letters before it refuses the text: hours of the
      // server's only thread, every request waiting. Checked in a child process, stopped if it has not answered.
      const script = `
        const { Slot } = require(${JSON.stringify(require.resolve('../../shared'))});
        const { SlotContract, placedSlots, formatSlotProblem } = require(${JSON.stringify(require.resolve('./slot-contract'))});
        const slot = Slot.make('Notice', { message: 'a'.repeat(40) + '!' });
        const remotes = ${JSON.stringify(withPattern('^([a-z ]+)*$'))};
        const problems = new SlotContract().check(placedSlots('global-before-content', [slot], 'code', null), remotes);
        process.stdout.write(problems.map(formatSlotProblem).join('\\n'));`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(child.stderr).toBe('');
      expect(child.signal).toBeNull();
      expect(child.stdout).toContain('props.message must match pattern "^([a-z ]+)*$"');
      expect(problemsOf(Slot.make('Notice', { message: 'all is well' }), withPattern('^([a-z ]+)*$'))).toEqual([]);
    });

    it('leaves a pattern it cannot run in linear time unchecked, saying so without refusing the slot', () => {
      const lookahead = withPattern('^(?!admin).*$');
      const [problem, ...others] = new SlotContract().check(
        placedSlots('global-before-content', [Slot.make('Notice', { message: 'admin' })], 'code'),
        lookahead,
      );
      expect(others).toEqual([]);
      expect(problem).toMatchObject({ kind: 'pattern-not-checked', blocking: false, remote: 'team_x' });
      expect(formatSlotProblem(problem!)).toMatch(
        /^Notice at global-before-content\[0\] \(code, remote "team_x"\): its props schema's pattern "\^\(\?!admin\)\.\*\$" is not checked: lookaround \(.*\) cannot be run in linear time$/,
      );
      // The rest of the schema is checked as ever.
      expect(problemsOf(Slot.make('Notice', { message: 3 }), lookahead)).toContainEqual(
        expect.stringContaining('props.message must be string'),
      );
    });

    it('says a pattern it cannot run for every schema that holds it, and every check', () => {
      // Ajv compiles one pattern once: the second schema's and the second check's must still say it.
      const lookahead = '^(?!admin).*$';
      const twoSchemas: ContractRemotes = {
        known: [
          {
            name: 'team_x',
            components: ['Notice', 'Banner'],
            props: {
              Notice: { type: 'object', properties: { message: { type: 'string', pattern: lookahead } } },
              Banner: { type: 'object', properties: { title: { type: 'string', pattern: lookahead } } },
            },
          },
        ],
        disabled: [],
        waiting: [],
      };
      const contract = new SlotContract();
      const slots = [Slot.make('Notice', { message: 'hi' }), Slot.make('Banner', { title: 'hi' })];
      for (let check = 0; check < 2; check++) {
        const problems = contract.check(placedSlots('global-before-content', slots, 'code'), twoSchemas);
        expect(problems.map((problem) => [problem.kind, formatSlotProblem(problem).split(' (')[0]])).toEqual([
          ['pattern-not-checked', 'Notice at global-before-content[0]'],
          ['pattern-not-checked', 'Banner at global-before-content[1]'],
        ]);
      }
    });

    it('refuses a schema of more patterns than it checks', () => {
      const properties = Object.fromEntries(
        Array.from({ length: 101 }, (_, index) => [`p${index}`, { type: 'string', pattern: `^${index}$` }]),
      );
      const many: ContractRemotes = {
        known: [{ name: 'team_x', components: ['Notice'], props: { Notice: { type: 'object', properties } } }],
        disabled: [],
        waiting: [],
      };
      expect(problemsOf(Slot.make('Notice', {}), many)[0]).toMatch(
        /its props schema is not a valid JSON Schema \(it has 101 patterns, over the 100 a schema may have\)/,
      );
    });
  });

  it('lists every problem in one start-up error', () => {
    const problems = new SlotContract().check(
      placedSlots('header-banner', [Slot.make('Nobody'), Slot.make('InvoiceBanner', {})], 'code'),
      REMOTES,
    );
    expect(new SlotContractError(problems).message).toBe(
      'Slots cannot render as registered: 2 problems (slot at location[position] (source, remote): problem):\n' +
        '  - Nobody at header-banner[0] (code): no remote provides "Nobody"\n' +
        '  - InvoiceBanner at header-banner[1] (code, remote "team_billing"): props.amountDue is required (number)',
    );
  });
});
