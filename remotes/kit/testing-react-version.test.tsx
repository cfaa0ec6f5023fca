import { version as reactVersion } from 'react';
import { defineRemote } from './define-remote';
import { propsSchema } from './schema';
import { sharedReactMismatch } from './shared-react';
import { renderSlot, SlotTestFailure } from './testing';

// The project's react-dom, as a team that ran `npm install react-dom@18.3.1` has it: the test would render with it,
// the product never does. (Only react-dom's main entry says so: react-dom/client refuses a `react` of another version
// as soon as it is imported, so this test cannot stand in for the whole of React 18.)
jest.mock('react-dom', () => ({ ...jest.requireActual<typeof import('react-dom')>('react-dom'), version: '18.3.1' }));

const remote = defineRemote({ name: 'team_test', components: { Hello: propsSchema({}) }, formComponents: [] });

function Hello() {
  return <p>Hello</p>;
}

describe('renderSlot on another React than the host shares', () => {
  it('fails the test with the message the build gives, before rendering anything', async () => {
    const rendering = renderSlot(remote, 'Hello', Hello, { location: 'dashboard-before-cards', props: {} });
    await expect(rendering).rejects.toThrow(SlotTestFailure);
    await expect(rendering).rejects.toMatchObject({
      kind: 'react-version',
      message: sharedReactMismatch({ react: reactVersion, 'react-dom': '18.3.1' }),
    });
    expect(document.body.childElementCount).toBe(0);
  });
});
