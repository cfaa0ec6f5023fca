/**
 * The props form made from a component's JSON Schema, under jsdom: a choice of values declared without a `type`
 * (an `enum`, or TypeBox's union of literals) is a drop-down, and a required one starts unchosen.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { deserialize, serialize } from 'node:v8';
import { useState } from 'react';
import type { JsonSchema, JsonValue, PlacementProblem } from '../../../shared';
import PlacementPropsForm from './placement-props-form';
import { propsFormSchema } from './props-form-schema';

// react-jsonschema-form under Jest, which runs CommonJS: the package's own CommonJS build of the form stands for
// the component file the page imports (which has none); the package's index requires the ajv validator it is not
// installed with (the form uses schema-form-validator.ts). Its `allOf` merger is ES modules only: these schemas have
// no `allOf`, so a merger that refuses to merge stands for it.
jest.mock('@rjsf/core/lib/components/Form.js', () => jest.requireActual('@rjsf/core'), { virtual: true });
jest.mock(
  '@rjsf/core/lib/components/widgets/SelectWidget.js',
  () => ({ __esModule: true, default: jest.requireActual('@rjsf/core').getDefaultRegistry().widgets.SelectWidget }),
  { virtual: true },
);
jest.mock('@rjsf/validator-ajv8', () => ({}), { virtual: true });
jest.mock('@x0k/json-schema-merge', () => jest.requireActual('../../../testing/host/schema-merger-stub'));
jest.mock('@x0k/json-schema-merge/lib/array', () => jest.requireActual('../../../testing/host/schema-merger-stub'));

// The form copies its data with structuredClone, which Jest's jsdom environment does not give.
globalThis.structuredClone ??= ((value: unknown) => deserialize(serialize(value))) as typeof structuredClone;

function options(select: HTMLElement): string[] {
  return [...(select as HTMLSelectElement).options].map((option) => option.value);
}

describe('the placements editor’s props form', () => {
  it('labels each prop by its title or its name in words, says "(required)", and words an error', async () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['title', 'linkLabel'],
      properties: {
        title: { type: 'string', title: 'Heading', description: 'Shown in bold at the top.' },
        linkLabel: { type: 'string' },
        count: { type: 'integer' },
      },
    };
    render(<PlacementPropsForm schema={schema} props={{ title: 'x' }} idPrefix="card" onChange={jest.fn()} />);
    const heading = screen.getByRole('textbox', { name: 'Heading (required)' });
    expect(screen.getByRole('textbox', { name: 'Link label (required)' }));
    expect(screen.getByRole('spinbutton', { name: 'Count' }));
    expect(screen.getByText('Shown in bold at the top.'));
    expect(document.body.textContent).not.toContain('*');

    fireEvent.change(heading, { target: { value: '' } });
    await screen.findByText('Heading is required');
    expect(heading.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(heading, { target: { value: 'y' } });
    await waitFor(() => expect(heading.getAttribute('aria-invalid')).toBeNull());
    expect(document.body.textContent).not.toMatch(/Instance|property "/);
  });

  it('points every field’s description at elements that are there, with an error or without', async () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['tone', 'title'],
      properties: {
        tone: { enum: ['info', 'warning'] },
        title: { type: 'string', description: 'Shown in bold.' },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
    const { container } = render(
      <PlacementPropsForm schema={schema} props={{ tags: ['a'] }} idPrefix="card" onChange={jest.fn()} />,
    );
    const dangling = () =>
      [...container.querySelectorAll('[aria-describedby]')].flatMap((element) =>
        (element.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .filter((id) => id !== '' && document.getElementById(id) === null)
          .map((id) => `${element.id}: ${id}`),
      );
    expect(container.querySelectorAll('[aria-describedby]').length).toBeGreaterThan(2);
    expect(dangling()).toEqual([]);
    // With an error shown, its id is the error's, once.
    fireEvent.change(screen.getByRole('textbox', { name: /^Title/ }), { target: { value: 'x' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Title/ }), { target: { value: '' } });
    await screen.findByText('Title is required');
    expect(dangling()).toEqual([]);
    expect(container.querySelectorAll('[id="card_title__error"]')).toHaveLength(1);
  });

  it("says the draft check's problems at their fields, marked invalid and tied to them, as its own check does", async () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['title'],
      properties: {
        title: { type: 'string', title: 'Heading' },
        tone: { enum: ['info', 'warning'] },
        links: { type: 'array', items: { type: 'object', properties: { href: { type: 'string' } } } },
      },
    };
    const problem = (path: string, message: string): PlacementProblem => ({
      remote: 'team_news',
      location: 'dashboard-after-cards',
      index: 0,
      component: 'Notice',
      kind: 'props-invalid',
      path,
      message,
      blocking: true,
    });
    render(
      <PlacementPropsForm
        schema={schema}
        props={{ title: 'x', tone: 'info', links: [{ href: 'javascript:x' }] }}
        idPrefix="card"
        problems={[
          problem('props.tone', 'must be one of "info", "warning", got "infos"'),
          problem('props.links[0].href', 'must be an http(s) address'),
          problem('props', 'has an unknown prop "extra"'),
        ]}
        onChange={jest.fn()}
      />,
    );
    const describedBy = (control: HTMLElement) =>
      (control.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    const tone = screen.getByRole('combobox', { name: 'Tone' });
    await waitFor(() => expect(tone.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(tone)).toContain('Tone must be one of "info", "warning", got "infos"');
    const href = screen.getByRole('textbox', { name: 'Href' });
    expect(href.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(href)).toContain('Links, item 1, Href must be an http(s) address');
    // A field without a problem is not marked.
    expect(screen.getByRole('textbox', { name: 'Heading (required)' }).getAttribute('aria-invalid')).toBeNull();
  });

  it('shows a number prop holding no number as it is, as text with its problem, mended by typing a number', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, title: 'Limit' } },
    };
    const problem: PlacementProblem = {
      remote: 'team_news',
      location: 'dashboard-after-cards',
      index: 0,
      component: 'ActivityTimeline',
      kind: 'props-invalid',
      path: 'props.limit',
      message: 'must be integer, got "five"',
      blocking: true,
    };
    function Imported() {
      const [props, setProps] = useState<JsonValue>({ limit: 'five' });
      return (
        <>
          <PlacementPropsForm schema={schema} props={props} idPrefix="card" problems={[problem]} onChange={setProps} />
          <output data-props>{JSON.stringify(props)}</output>
        </>
      );
    }
    render(<Imported />);
    // Not an empty number box: the value there, said wrong at it.
    const limit = screen.getByRole('textbox', { name: 'Limit' });
    expect(limit).toHaveProperty('value', 'five');
    await waitFor(() => expect(limit.getAttribute('aria-invalid')).toBe('true'));
    const described = (limit.getAttribute('aria-describedby') ?? '').split(/\s+/);
    expect(described.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')).toContain(
      'Limit must be integer, got "five"',
    );
    fireEvent.change(limit, { target: { value: '5' } });
    expect(document.querySelector('[data-props]')?.textContent).toBe('{"limit":5}');
    // A number box again, the same element.
    expect(screen.getByRole('spinbutton', { name: 'Limit' })).toBe(limit);
    expect(limit).toHaveProperty('value', '5');
  });

  it("names each field and group after the entry it is of, out of sight: two slots' props are not one name twice", () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['title'],
      properties: {
        title: { type: 'string' },
        links: { type: 'array', title: 'Links', items: { type: 'object', properties: { href: { type: 'string' } } } },
      },
    };
    for (const owner of ['WelcomeCard (team_marketing) #1', 'WelcomeCard (team_marketing) #2']) {
      render(
        <PlacementPropsForm schema={schema} props={{}} idPrefix={owner.slice(-1)} owner={owner} onChange={jest.fn()} />,
      );
    }
    // Each name once on the page.
    for (const number of [1, 2]) {
      const name = new RegExp(`^Title \\(required\\) — WelcomeCard \\(team_marketing\\) #${number}$`);
      expect(screen.getAllByRole('textbox', { name })).toHaveLength(1);
    }
    expect(screen.getAllByText('Links').map((text) => text.closest('legend')?.textContent)).toEqual([
      'Links — WelcomeCard (team_marketing) #1',
      'Links — WelcomeCard (team_marketing) #2',
    ]);
  });

  it('offers an enum without a type as a drop-down, unchosen while it is required, and gives the chosen value', async () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['tone'],
      properties: { tone: { enum: ['info', 'warning', 'success'] } },
    };
    const onChange = jest.fn();
    render(<PlacementPropsForm schema={schema} props={{}} idPrefix="callout" onChange={onChange} />);

    expect(screen.queryByText(/Unsupported field schema/)).toBeNull();
    const tone = screen.getByRole('combobox', { name: /tone/i });
    expect(options(tone)).toEqual(['', '0', '1', '2']);
    // The unchosen option is named, not blank (a screen reader read it as "blank"); its value is still none.
    expect([...(tone as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
      'Choose…',
      'info',
      'warning',
      'success',
    ]);
    expect(tone).toHaveProperty('value', '');
    expect(onChange).not.toHaveBeenCalledWith(expect.objectContaining({ tone: expect.anything() }));

    fireEvent.change(tone, { target: { value: '1' } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ tone: 'warning' }));
  });

  it('puts the props in no nameless group, a prop holding an object in one named by it', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { title: { type: 'string' }, link: { type: 'object', properties: { href: { type: 'string' } } } },
    };
    render(<PlacementPropsForm schema={schema} props={{}} idPrefix="card" owner="Card #1" onChange={jest.fn()} />);
    // A screen reader announced "group" with no name before the first prop.
    expect(screen.queryAllByRole('group', { name: (name) => name === '' })).toEqual([]);
    const link = screen.getByRole('group', { name: 'Link — Card #1' });
    expect(link.contains(screen.getByRole('textbox', { name: /^Href/ }))).toBe(true);
  });

  it('offers a union of literals (as MaintenanceNotice declares its severity) as a drop-down, the first not chosen for the operator', async () => {
    const schema: JsonSchema = {
      type: 'object',
      additionalProperties: false,
      required: ['message', 'severity'],
      properties: {
        message: { type: 'string' },
        severity: {
          anyOf: [
            { const: 'info', type: 'string' },
            { const: 'warning', type: 'string' },
          ],
        },
      },
    };
    const onChange = jest.fn();
    const { rerender } = render(
      <PlacementPropsForm schema={schema} props={{ message: 'Down at noon' }} idPrefix="notice" onChange={onChange} />,
    );

    const severity = screen.getByRole('combobox', { name: /severity/i });
    expect(screen.queryByText(/Unsupported field schema/)).toBeNull();
    expect([...(severity as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
      'Choose…',
      'info',
      'warning',
    ]);
    expect(severity).toHaveProperty('value', '');
    for (const [props] of onChange.mock.calls) expect(props).not.toHaveProperty('severity');

    fireEvent.change(severity, { target: { value: '1' } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ message: 'Down at noon', severity: 'warning' }));

    // Saved props show as chosen.
    rerender(
      <PlacementPropsForm
        schema={schema}
        props={{ message: 'Down at noon', severity: 'info' }}
        idPrefix="notice"
        onChange={onChange}
      />,
    );
    expect(screen.getByRole('combobox', { name: /severity/i })).toHaveProperty('value', '0');
  });

  it('names each list item’s buttons with the item, so that three Remove buttons are told apart', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { links: { type: 'array', items: { type: 'string' } } },
    };
    const onChange = jest.fn();
    render(
      <PlacementPropsForm schema={schema} props={{ links: ['a', 'b', 'c'] }} idPrefix="card" onChange={onChange} />,
    );
    expect(
      screen.getAllByRole('button', { name: /^Remove item/ }).map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Remove item 1 of 3', 'Remove item 2 of 3', 'Remove item 3 of 3']);
    expect((screen.getByRole('button', { name: 'Move up item 1 of 3' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Move down item 1 of 3' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ links: ['b', 'a', 'c'] }));
  });
});

describe('the props schema as the form is given it', () => {
  it('types a choice by the values it allows, at every depth, when they share a type', () => {
    expect(
      propsFormSchema({
        type: 'object',
        properties: {
          tone: { enum: ['info', 'warning'] },
          size: { oneOf: [{ const: 1 }, { const: 2.5 }] },
          count: { enum: [1, 2] },
          fixed: { const: true },
          links: {
            type: 'array',
            items: { type: 'object', properties: { kind: { anyOf: [{ const: 'a' }, { enum: ['b'] }] } } },
          },
          mixed: { enum: ['a', 1] },
          typed: { type: ['string', 'null'], enum: ['a', null] },
          text: { type: 'string' },
          shapes: { enum: [{ a: 1 }] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        tone: { type: 'string', enum: ['info', 'warning'] },
        size: {
          type: 'number',
          oneOf: [
            { type: 'integer', const: 1 },
            { type: 'number', const: 2.5 },
          ],
        },
        count: { type: 'integer', enum: [1, 2] },
        fixed: { type: 'boolean', const: true },
        links: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              kind: {
                type: 'string',
                anyOf: [
                  { type: 'string', const: 'a' },
                  { type: 'string', enum: ['b'] },
                ],
              },
            },
          },
        },
        mixed: { enum: ['a', 1] },
        typed: { type: ['string', 'null'], enum: ['a', null] },
        text: { type: 'string' },
        shapes: { enum: [{ a: 1 }] },
      },
    });
  });

  it('leaves the schema it is given as it was', () => {
    const schema: JsonSchema = { type: 'object', properties: { tone: { enum: ['info'] } } };
    propsFormSchema(schema);
    expect(schema).toEqual({ type: 'object', properties: { tone: { enum: ['info'] } } });
  });
});
