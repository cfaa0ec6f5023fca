/**
 * An entry's body under jsdom: the draft check's problems of its props are said at their fields until the props are
 * edited, when the form's own check takes over (the list under the form keeps the check's words until a save).
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { deserialize, serialize } from 'node:v8';
import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';
import { CardName } from './placement-card-name';
import { PlacementEntryBody } from './placement-entry-body';

// As in placement-props-form.test.tsx: the form library's CommonJS build, no ajv, a merger that does not merge.
jest.mock('@rjsf/core/lib/components/Form.js', () => jest.requireActual('@rjsf/core'), { virtual: true });
jest.mock(
  '@rjsf/core/lib/components/widgets/SelectWidget.js',
  () => ({ __esModule: true, default: jest.requireActual('@rjsf/core').getDefaultRegistry().widgets.SelectWidget }),
  { virtual: true },
);
jest.mock('@rjsf/validator-ajv8', () => ({}), { virtual: true });
jest.mock('@x0k/json-schema-merge', () => jest.requireActual('../../../testing/host/schema-merger-stub'));
jest.mock('@x0k/json-schema-merge/lib/array', () => jest.requireActual('../../../testing/host/schema-merger-stub'));
globalThis.structuredClone ??= ((value: unknown) => deserialize(serialize(value))) as typeof structuredClone;

const SCHEMA: JsonSchema = { type: 'object', properties: { tone: { enum: ['info', 'warning'] } } };

const toneProblem = (): PlacementProblem => ({
  remote: 'team_news',
  location: 'dashboard-after-cards',
  index: 0,
  component: 'Notice',
  kind: 'props-invalid',
  path: 'props.tone',
  message: 'is not allowed here by the host',
  blocking: true,
});

/** The entry with its props held as the page holds them: what is typed comes back as its props. */
function Entry({ problems }: { problems: readonly PlacementProblem[] }) {
  const [props, setProps] = useState<JsonValue>({ tone: 'info' });
  return (
    <PlacementEntryBody
      id="entry"
      name="Notice"
      schema={SCHEMA}
      props={props}
      problems={problems}
      setProps={setProps}
      remove={jest.fn()}
    />
  );
}

it('says the check’s problem at its field until the props are edited, and again after a check that finds it', async () => {
  const found = [toneProblem()];
  const { rerender } = render(<Entry problems={found} />);
  const tone = await screen.findByRole('combobox', { name: /^Tone/ });
  await waitFor(() => expect(tone.getAttribute('aria-invalid')).toBe('true'));
  // The same problems, made anew by the page's next render (a filter): still the props they were found in.
  rerender(<Entry problems={[...found]} />);
  expect(tone.getAttribute('aria-invalid')).toBe('true');

  // Edited: the form's own check speaks (the value is one it allows); the list below keeps the check's words.
  fireEvent.change(tone, { target: { value: '1' } });
  rerender(<Entry problems={[...found]} />);
  await waitFor(() => expect(tone.getAttribute('aria-invalid')).toBeNull());
  expect(screen.getByText(/Tone is not allowed here by the host/)).toBeTruthy();

  // Saved and checked again, finding the same: said at the field again.
  rerender(<Entry problems={[toneProblem()]} />);
  await waitFor(() => expect(tone.getAttribute('aria-invalid')).toBe('true'));
});

it('says an unknown component is unknown, not that its remote declares no props schema', () => {
  const unknown: PlacementProblem = {
    ...toneProblem(),
    kind: 'unknown-component',
    path: null,
    message: 'remote "team_news" provides no component "NoSuchThing" (it provides Notice)',
  };
  render(
    <PlacementEntryBody
      id="entry"
      name="NoSuchThing"
      schema={null}
      props={{}}
      problems={[unknown]}
      setProps={jest.fn()}
      remove={jest.fn()}
    />,
  );
  expect(screen.getByText(/^Its component is unknown \(its problem below says why\)/)).toBeTruthy();
  expect(screen.queryByText(/declares no props schema/)).toBeNull();
});

it('says a prop’s problem once, at its field, the list linking to it rather than repeating it', async () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { limit: { type: 'integer', minimum: 1, title: 'Limit' } },
    required: ['limit'],
  };
  const problem = (props: JsonValue, message: string): PlacementProblem => ({
    ...toneProblem(),
    component: 'ActivityTimeline',
    path: 'props.limit',
    message,
  });
  for (const [props, message, said] of [
    [{ limit: 0 }, 'must be >= 1, got 0', 'Limit must be >= 1, got 0'],
    [{}, 'is required (integer)', 'Limit is required'],
  ] as const) {
    const { unmount } = render(
      <PlacementEntryBody
        id="entry"
        name={<CardName name="ActivityTimeline (team_news) #2" where="at dashboard-after-cards" />}
        schema={schema}
        props={props}
        problems={[problem(props, message)]}
        setProps={jest.fn()}
        remove={jest.fn()}
      />,
    );
    const limit = await screen.findByRole('spinbutton', { name: /^Limit/ });
    await waitFor(() => expect(limit.getAttribute('aria-invalid')).toBe('true'));
    // Once in the whole entry: not the form's own wording beside it, not the list again.
    await waitFor(() => expect(screen.getAllByText(new RegExp(`^${said}`))).toHaveLength(1));
    expect(screen.queryByText(/^Limit is not valid/)).toBeNull();
    const described = (limit.getAttribute('aria-describedby') ?? '').split(' ');
    expect(described.some((id) => document.getElementById(id)?.textContent?.includes(said))).toBe(true);
    // Named as a staff member reads the field: its label in the form, of which slot, where (the location heard only).
    const link = screen.getByRole('link', {
      name: 'Limit of ActivityTimeline (team_news) #2 at dashboard-after-cards',
    });
    expect(link.closest('li')?.textContent).toBe(
      'Limit of ActivityTimeline (team_news) #2 at dashboard-after-cards: its problem is said at its field',
    );
    expect(link.querySelector('.visually-hidden')?.textContent).toBe(' at dashboard-after-cards');
    fireEvent.click(link);
    expect(document.activeElement).toBe(limit);
    unmount();
  }
});

it('says a prop typed wrong once at its field after a save finds it, not in the form’s wording too', async () => {
  const schema: JsonSchema = { type: 'object', properties: { limit: { type: 'integer', minimum: 1, title: 'Limit' } } };
  function Typed({ problems }: { problems: readonly PlacementProblem[] }) {
    const [props, setProps] = useState<JsonValue>({ limit: 5 });
    return (
      <PlacementEntryBody
        id="entry"
        name="ActivityTimeline"
        schema={schema}
        props={props}
        problems={problems}
        setProps={setProps}
        remove={jest.fn()}
      />
    );
  }
  const { rerender } = render(<Typed problems={[]} />);
  const limit = await screen.findByRole('spinbutton', { name: /^Limit/ });
  fireEvent.change(limit, { target: { value: '0' } });
  await screen.findByText(/^Limit is not valid/);
  // Saved: the check finds it too, and is said there in its place.
  rerender(<Typed problems={[{ ...toneProblem(), path: 'props.limit', message: 'must be >= 1, got 0' }]} />);
  await screen.findByText('Limit must be >= 1, got 0');
  expect(screen.queryByText(/^Limit is not valid/)).toBeNull();
});
