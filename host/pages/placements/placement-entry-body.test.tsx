/**
 * An entry's body under jsdom: the draft check's problems of its props are said at their fields until the props are
 * edited, when the form's own check takes over (the list under the form keeps the check's words until a save).
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { deserialize, serialize } from 'node:v8';
import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';
import { PlacementEntryBody } from './placement-entry-body';

// As in placement-props-form.test.tsx: the form library's CommonJS build, no ajv, a merger that does not merge.
jest.mock('@rjsf/core/lib/components/Form.js', () => jest.requireActual('@rjsf/core'), { virtual: true });
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
