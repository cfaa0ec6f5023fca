import type { FormSlotProps, ResourceActionSlotProps } from '../../shared';
import { defineRemote } from './define-remote';
import { propsSchema, Type } from './schema';
import { act, renderSlot, SlotTestFailure } from './testing';

const remote = defineRemote({
  name: 'team_test',
  components: {
    Hello: propsSchema({ name: Type.String() }),
    RecordTitle: propsSchema({}),
    Shout: propsSchema({ field: Type.String() }),
    Broken: propsSchema({}),
    // A pattern the host's development check runs, and one it leaves to the server (it may backtrack without end).
    Notice: propsSchema({
      code: Type.String({ pattern: '^[A-Z]{3}$' }),
      message: Type.String({ pattern: '^([a-z ]+)*$' }),
    }),
  },
  formComponents: ['Shout'],
});

function Hello({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

function RecordTitle({ record }: ResourceActionSlotProps) {
  return <p>Record: {record.title}</p>;
}

function Shout({ formContext, field }: FormSlotProps<{ field: string }>) {
  const value = String(formContext.values[field] ?? '');
  return (
    <button type="button" onClick={() => formContext.setValue(field, value.toUpperCase())}>
      {formContext.mode}: {value}
    </button>
  );
}

function Broken(): never {
  throw new Error('Broken on purpose');
}

function Notice({ code, message }: { code: string; message: string }) {
  return (
    <p>
      {code}: {message}
    </p>
  );
}

async function failureOf(promise: Promise<unknown>): Promise<SlotTestFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SlotTestFailure) return error;
    throw error;
  }
  throw new Error('the slot rendered');
}

describe('renderSlot', () => {
  it('renders a component at a location through the product renderer, in its location wrapper', async () => {
    const slot = await renderSlot(remote, 'Hello', Hello, {
      location: 'dashboard-before-cards',
      props: { name: 'Ada' },
    });
    expect(
      slot.container.querySelector('[data-slot-location="dashboard-before-cards"] [data-slot-component="Hello"]')
        ?.textContent,
    ).toBe('Hello, Ada');
    slot.unmount();
  });

  it('takes the module too (the named export of the component, else the default export)', async () => {
    const slot = await renderSlot(
      remote,
      'Hello',
      { default: Hello },
      { location: 'login-before-form', props: { name: 'Bo' } },
    );
    expect(slot.container.textContent).toBe('Hello, Bo');
    slot.unmount();
  });

  it('checks patterns as the host does: one that may backtrack without end is left to the server', async () => {
    const failure = await failureOf(
      renderSlot(remote, 'Notice', Notice, { location: 'header-banner', props: { code: 'abc', message: 'hi' } }),
    );
    expect(failure.message).toMatch(/props\.code must match pattern "\^\[A-Z\]\{3\}\$", got "abc"/);
    // Not checked in the browser, as in the product's development page: this text would hold JavaScript's engine.
    const message = `${'a'.repeat(40)}!`;
    const slot = await renderSlot(remote, 'Notice', Notice, {
      location: 'header-banner',
      props: { code: 'ABC', message },
    });
    expect(slot.container.textContent).toBe(`ABC: ${message}`);
    slot.unmount();
  });

  it('fails on props that do not match the schema, with the message the product shows', async () => {
    const failure = await failureOf(
      renderSlot(remote, 'Hello', Hello, { location: 'dashboard-before-cards', props: { name: 42 } }),
    );
    expect(failure.kind).toBe('props-invalid');
    // The server's words for the same props, not the validator's ("Instance type …").
    expect(failure.message).toMatch(/props\.name must be string, got 42/);
  });

  it('gives the record at the action locations only: elsewhere a component needing it fails', async () => {
    const slot = await renderSlot(remote, 'RecordTitle', RecordTitle, { location: 'resource-page-actions', props: {} });
    expect(slot.container.textContent).toBe('Record: First article');
    slot.unmount();
    const failure = await failureOf(
      renderSlot(remote, 'RecordTitle', RecordTitle, { location: 'dashboard-after-cards', props: {} }),
    );
    expect(failure.kind).toBe('render-error');
  });

  it('catches a throwing component in its error boundary', async () => {
    const failure = await failureOf(renderSlot(remote, 'Broken', Broken, { location: 'header-banner', props: {} }));
    expect(failure).toMatchObject({ kind: 'render-error', message: expect.stringContaining('Broken on purpose') });
  });

  it('gives a form component a live form context it reads and writes', async () => {
    const slot = await renderSlot(remote, 'Shout', Shout, { location: 'form', props: { field: 'title' } });
    const button = slot.container.querySelector('button')!;
    expect(button.textContent).toBe('edit: First article');
    act(() => button.click());
    expect(slot.formValues().title).toBe('FIRST ARTICLE');
    expect(button.textContent).toBe('edit: FIRST ARTICLE');
    slot.unmount();
  });

  it("exports React's act: a click wrapped in it writes the form's values by the next line, and React warns of nothing", async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const slot = await renderSlot(remote, 'Shout', Shout, { location: 'form', props: { field: 'title' } });
      act(() => slot.container.querySelector('button')!.click());
      expect(slot.formValues().title).toBe('FIRST ARTICLE');
      slot.unmount();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("names the test's form in React's warning of a click not wrapped in act, whose update is not there yet", async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const slot = await renderSlot(remote, 'Shout', Shout, { location: 'form', props: { field: 'title' } });
      slot.container.querySelector('button')!.click();
      expect(slot.formValues().title).toBe('First article');
      expect(errors.mock.calls.map((call) => String(call[0]).replace('%s', String(call[1])))).toContainEqual(
        expect.stringContaining('An update to SlotTestForm inside a test was not wrapped in act(...)'),
      );
      slot.unmount();
    } finally {
      errors.mockRestore();
    }
  });

  it('says a form component that failed outside a form had no form context there, and how to write it for both', async () => {
    const failure = await failureOf(
      renderSlot(remote, 'Shout', Shout, { location: 'dashboard-before-cards', props: { field: 'title' } }),
    );
    expect(failure.kind).toBe('render-error');
    expect(failure.message).toContain(
      'Shout is a form component: outside a form, location "dashboard-before-cards" included, it is given no ' +
        'formContext, and no resource but at the record actions (resource-page-actions, resource-edit-actions).',
    );
    expect(failure.message).toContain('in a form, test it at location "form".');
    // Any other component's failure is told as it was.
    expect(
      (await failureOf(renderSlot(remote, 'Broken', Broken, { location: 'header-banner', props: {} }))).message,
    ).toBe('Broken at header-banner failed (render-error): Broken on purpose');
  });

  it('refuses in a form a component not declared among the form components', async () => {
    const failure = await failureOf(renderSlot(remote, 'Hello', Hello, { location: 'form', props: { name: 'x' } }));
    expect(failure.kind).toBe('not-a-form-component');
  });

  it('refuses a component remote.ts does not declare', async () => {
    const failure = await failureOf(renderSlot(remote, 'Nobody', Hello, { location: 'form', props: {} }));
    expect(failure.kind).toBe('unknown-component');
  });
});
