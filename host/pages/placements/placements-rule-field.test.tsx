import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { STAFF_ROLES, type JsonValue } from '../../../shared';
import { RuleChoicesContext } from './placements-rule-choices';
import { RULE_WORDS_SETTLE_MS, RuleField } from './placements-rule-field';
import type { RuleProblemPlace } from './rule-problem-place';

const CHOICES = { tenants: [{ id: 'acme', name: 'Acme' }], flags: ['beta'] };
const NAME = 'Banner #1';

/** One card's rule field, over a draft of one rule; the rule the draft holds is shown beside it. */
function Field({
  initial,
  choices = CHOICES,
  problems,
}: {
  initial?: JsonValue;
  choices?: typeof CHOICES | null;
  problems?: readonly RuleProblemPlace[];
}) {
  const [rule, setRule] = useState<JsonValue | undefined>(initial);
  return (
    <RuleChoicesContext.Provider value={choices}>
      <RuleField
        id="card"
        name={NAME}
        label={NAME}
        rule={rule}
        setRule={setRule}
        touch={() => undefined}
        problems={problems}
      />
      <output data-rule>{rule === undefined ? 'null' : JSON.stringify(rule)}</output>
    </RuleChoicesContext.Provider>
  );
}

const held = () => JSON.parse(document.querySelector('[data-rule]')?.textContent ?? 'null') as JsonValue;
const reading = () => document.getElementById('card-rule-hint')?.textContent;
const field = () => screen.getByRole('group', { name: `Shown when rule of ${NAME}` });
const button = (name: string) =>
  within(field()).getByRole('button', { name: `${name} in the Shown when rule of ${NAME}` });
const control = (name: string) => within(field()).getByLabelText(`${name} in the Shown when rule of ${NAME}`);
/** A name's box: `nameBox('operator', 'roles', '2.2')`. */
const nameBox = (name: string, kind: string, condition: string) =>
  within(field()).getByRole('checkbox', {
    name: `${name} as one of the ${kind} of condition ${condition} in the Shown when rule of ${NAME}`,
  }) as HTMLInputElement;
const toggle = () => screen.getByRole('button', { name: `Edit as JSON: Shown when rule of ${NAME}` });
const jsonBox = () => within(field()).getByLabelText(`JSON of the Shown when rule of ${NAME}`) as HTMLTextAreaElement;
/** Time passing without a key pressed. */
const pause = (ms: number) => act(() => jest.advanceTimersByTime(ms));

afterEach(() => jest.useRealTimers());

describe('the Shown when rule builder', () => {
  it('builds a rule from conditions, a group and a not, reads it back in words, the focus on what was added', () => {
    render(<Field />);
    expect(reading()).toBe('No rule: shown to everyone who sees the location.');
    // Said once: the builder's empty state does not say it again in other words.
    expect(field().textContent?.match(/everyone/g)).toHaveLength(1);
    fireEvent.click(button('Add a condition'));
    // The new condition's first control takes the focus.
    expect(document.activeElement).toBe(control('Condition 1 is about'));
    // Not complete yet: said as the step left, in the builder's words, not as the server's refusal of an empty list.
    expect(reading()).toBe(
      'Not complete: condition 1 names no role yet (tick one). Until it is, the preview leaves this slot out and a ' +
        'publish is refused.',
    );
    fireEvent.change(control('Condition 1 is about'), { target: { value: 'tenants' } });
    // A known tenant is a box; another is typed.
    fireEvent.click(nameBox('Acme (acme)', 'tenants', '1'));
    fireEvent.change(control('Other tenants of condition 1, separated by commas'), {
      target: { value: 'globex, initech' },
    });
    expect(held()).toEqual({ tenants: ['acme', 'globex', 'initech'] });

    fireEvent.click(button('Add a group'));
    expect(document.activeElement).toBe(control('Group 2: shown when'));
    fireEvent.change(control('Group 2: shown when'), { target: { value: '$any' } });
    fireEvent.change(control('Condition 2.1 is about'), { target: { value: 'flags' } });
    fireEvent.change(control('Test of condition 2.1'), { target: { value: 'not' } });
    fireEvent.click(nameBox('beta', 'flags', '2.1'));
    fireEvent.click(button('Add a condition to group 2'));
    fireEvent.click(nameBox('operator', 'roles', '2.2'));
    fireEvent.click(control('Not: shown when group 2 does not hold'));
    expect(held()).toEqual({
      $all: [
        { tenants: ['acme', 'globex', 'initech'] },
        { $not: { $any: [{ $not: { flags: ['beta'] } }, { roles: ['operator'] }] } },
      ],
    });
    expect(reading()).toBe('Shown to: (tenant acme or globex or initech and not (not flag beta on or role operator)).');

    // Removed: the focus on its group's Add, never on a button gone.
    fireEvent.click(button('Remove condition 2.2'));
    expect(document.activeElement).toBe(button('Add a condition to group 2'));
    fireEvent.click(button('Remove group 2'));
    expect(document.activeElement).toBe(button('Add a condition'));
    expect(held()).toEqual({ $all: [{ tenants: ['acme', 'globex', 'initech'] }] });
    fireEvent.click(button('Remove condition 1'));
    // The last condition gone: no rule at all, not an empty group the server refuses.
    expect(held()).toBeNull();
    expect(document.activeElement).toBe(button('Add a condition'));
  });

  it('says the rule in words again at every edit, in a live region: heard while the focus stays in the rule', () => {
    jest.useFakeTimers();
    render(<Field initial={{ roles: ['editor'] }} />);
    const words = document.getElementById('card-rule-hint')!;
    // The group's description (read as the focus enters it) and, polite, said again at each edit made inside it.
    expect(field().getAttribute('aria-describedby')).toBe(words.id);
    expect(words.getAttribute('aria-live')).toBe('polite');
    const said: string[] = [];
    const heard = () => said.push(words.textContent ?? '');
    fireEvent.click(nameBox('operator', 'roles', '1'));
    heard();
    fireEvent.change(control('Test of condition 1'), { target: { value: 'not' } });
    heard();
    fireEvent.click(button('Add a condition'));
    heard();
    fireEvent.change(control('Condition 2 is about'), { target: { value: 'flags' } });
    fireEvent.click(nameBox('beta', 'flags', '2'));
    heard();
    fireEvent.click(toggle());
    fireEvent.change(jsonBox(), { target: { value: '{"tenants": ["acme"]}' } });
    // Typed JSON, once typing pauses.
    pause(RULE_WORDS_SETTLE_MS);
    heard();
    // The same element throughout (a live region replaced is not heard): each edit's words in it at once.
    expect(document.getElementById('card-rule-hint')).toBe(words);
    expect(said).toEqual([
      'Shown to: role editor or operator.',
      'Shown to: not role editor or operator.',
      'Not complete: condition 2 names no role yet (tick one). Until it is, the preview leaves this slot out and a ' +
        'publish is refused.',
      'Shown to: (not role editor or operator and flag beta on).',
      'Shown to: tenant acme.',
    ]);
  });

  it('names each name’s box by what it toggles: the name, of which condition, in which card’s rule', () => {
    render(<Field initial={{ $any: [{ roles: ['editor'] }, { roles: ['viewer'] }, { tenants: ['acme'] }] }} />);
    // Each name found once (getByRole refuses two alike): the same role's boxes of conditions 1 and 2 told apart.
    for (const role of STAFF_ROLES) {
      expect(nameBox(role, 'roles', '1').checked).toBe(role === 'editor');
      expect(nameBox(role, 'roles', '2').checked).toBe(role === 'viewer');
    }
    expect(nameBox('Acme (acme)', 'tenants', '3').checked).toBe(true);
    // Seen, a box still says the name alone: its condition's legend says the rest.
    const label = nameBox('viewer', 'roles', '2').closest('label') as HTMLElement;
    expect(label.querySelectorAll(':scope > :not(input, .visually-hidden)')).toHaveLength(0);
  });

  it('takes names typed alone while the server’s tenants and flags are unknown', () => {
    render(<Field initial={{ flags: ['beta'] }} choices={null} />);
    const flags = control('Flags of condition 1, separated by commas') as HTMLInputElement;
    expect(flags.value).toBe('beta');
    fireEvent.change(flags, { target: { value: 'beta, new-nav,' } });
    expect(held()).toEqual({ flags: ['beta', 'new-nav'] });
    // As typed, the trailing comma too: the box is not rewritten under the cursor.
    expect(flags.value).toBe('beta, new-nav,');
  });

  it('switches to the JSON and back keeping the rule, an edit in JSON shown by the builder', () => {
    const rule: JsonValue = { $any: [{ roles: ['editor'] }, { $not: { tenants: ['acme'] } }] };
    render(<Field initial={rule} />);
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle());
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    const box = within(field()).getByLabelText(`JSON of the Shown when rule of ${NAME}`) as HTMLTextAreaElement;
    expect(JSON.parse(box.value)).toEqual(rule);
    fireEvent.change(box, { target: { value: '{"$all": [{"roles": ["viewer"]}, {"flags": ["beta"]}]}' } });
    fireEvent.click(toggle());
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    expect((control('Shown when') as HTMLSelectElement).value).toBe('$all');
    expect(nameBox('viewer', 'roles', '1').checked).toBe(true);
    expect(nameBox('beta', 'flags', '2').checked).toBe(true);
    expect(held()).toEqual({ $all: [{ roles: ['viewer'] }, { flags: ['beta'] }] });
    expect(reading()).toBe('Shown to: (role viewer and flag beta on).');
  });

  it('keeps text that is not JSON in the JSON, said in words, and loses nothing', () => {
    jest.useFakeTimers();
    render(<Field initial={{ roles: ['editor'] }} />);
    fireEvent.click(toggle());
    const box = jsonBox();
    fireEvent.change(box, { target: { value: '{"roles": ["operator"]' } });
    pause(RULE_WORDS_SETTLE_MS);
    expect(reading()).toBe('Not JSON yet, e.g. {"roles": ["editor"]}.');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(toggle());
    // Still the JSON, as typed, with why; the draft keeps the rule it had.
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    expect(box.value).toBe('{"roles": ["operator"]');
    expect(within(field()).getByRole('status').textContent).toMatch(/^It stays in JSON until the text is JSON/);
    expect(held()).toEqual({ roles: ['editor'] });
    fireEvent.change(box, { target: { value: '{"roles": ["operator"]}' } });
    fireEvent.click(toggle());
    expect(nameBox('operator', 'roles', '1').checked).toBe(true);
  });

  it('says JSON being typed once typing pauses, not "Not JSON yet" and the rule in turn at each key', () => {
    jest.useFakeTimers();
    render(<Field initial={{ roles: ['editor'] }} />);
    fireEvent.click(toggle());
    // What the live region says: each text it takes, read after every key and every pause.
    const said: string[] = [];
    let last = reading();
    const listen = () => {
      if (reading() !== last) said.push((last = reading()) ?? '');
    };
    const type = (text: string) => {
      for (const key of text) {
        fireEvent.change(jsonBox(), { target: { value: jsonBox().value + key } });
        listen();
        pause(RULE_WORDS_SETTLE_MS / 5);
        listen();
      }
    };
    // Emptied (no rule: JSON) and typed again key by key, JSON at `{}`, not JSON until the last `}`: nothing said.
    fireEvent.change(jsonBox(), { target: { value: '' } });
    type('{}');
    fireEvent.change(jsonBox(), { target: { value: '{' } });
    listen();
    type('"tenants": ["acme"]}');
    expect(held()).toEqual({ tenants: ['acme'] });
    expect(jsonBox().getAttribute('aria-invalid')).toBe('false');
    expect(said).toEqual([]);
    pause(RULE_WORDS_SETTLE_MS);
    listen();
    expect(said).toEqual(['Shown to: tenant acme.']);
    // A pause on text that is not JSON is said, once; leaving the box says its words at once.
    // The last `]}` taken back (two backspaces) to name another tenant.
    fireEvent.change(jsonBox(), { target: { value: jsonBox().value.slice(0, -2) } });
    type(', "glob');
    pause(RULE_WORDS_SETTLE_MS);
    listen();
    type('ex"]}');
    fireEvent.focusOut(jsonBox());
    listen();
    expect(said).toEqual([
      'Shown to: tenant acme.',
      'Not JSON yet, e.g. {"roles": ["editor"]}.',
      'Shown to: tenant acme or globex.',
    ]);
  });

  it('opens a rule the builder cannot show in the JSON, saying why', () => {
    render(<Field initial={{ $not: { $not: { roles: ['editor'] } } }} />);
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    expect(within(field()).getByRole('status').textContent).toMatch(
      /^The builder cannot show this rule: .*a not of a not/,
    );
    fireEvent.click(toggle());
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    expect(
      (within(field()).getByLabelText(`JSON of the Shown when rule of ${NAME}`) as HTMLTextAreaElement).value,
    ).toBe('{"$not":{"$not":{"roles":["editor"]}}}');
  });

  it('marks a name that stops a publish invalid, and says a warning without marking it', () => {
    const words = 'The rule names the unknown tenant "initech".';
    const others = () => control('Other tenants of condition 1, separated by commas') as HTMLInputElement;
    const { unmount } = render(
      <Field initial={{ tenants: ['initech'] }} problems={[{ condition: '1', words, blocking: true }]} />,
    );
    expect(reading()).toContain(words);
    expect(others().getAttribute('aria-invalid')).toBe('true');
    unmount();
    // A rule in force since a publish, its tenant removed since: said, but nothing to mend before other changes publish.
    render(<Field initial={{ tenants: ['initech'] }} problems={[{ condition: '1', words, blocking: false }]} />);
    expect(reading()).toContain(words);
    expect(others().getAttribute('aria-invalid')).toBe('false');
    fireEvent.click(toggle());
    const box = within(field()).getByLabelText(`JSON of the Shown when rule of ${NAME}`);
    expect(box.getAttribute('aria-invalid')).toBe('false');
  });
});
