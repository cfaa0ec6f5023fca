import { renderSlot, SlotTestFailure } from '@slots-platform/remote-kit/testing';
import remote from '../remote';
import { Hello } from './Hello';

/**
 * Hello as a slot of the product: rendered by the product's own slot renderer, its props checked against the schema
 * in remote.ts, the location's context given, the error boundary in place. A wrong prop, a missing context or a
 * throw fails here, before any deploy.
 */
describe('Hello', () => {
  it('greets the name it is given, at the top of the dashboard', async () => {
    const slot = await renderSlot(remote, 'Hello', Hello, {
      location: 'dashboard-before-cards',
      props: { name: 'Ada' },
    });
    expect(slot.container.querySelector('.hello')?.textContent).toBe('Hello, Ada');
    slot.unmount();
  });

  it('is refused props its schema does not allow', async () => {
    const refused = renderSlot(remote, 'Hello', Hello, { location: 'dashboard-before-cards', props: { name: 42 } });
    await expect(refused).rejects.toThrow(SlotTestFailure);
    // Refused for its props, not for another reason (another React than the host's fails every slot test too).
    await expect(refused).rejects.toMatchObject({ kind: 'props-invalid' });
  });
});
