/**
 * @jest-environment jsdom
 */
import { READY_GLOBAL, slotsReadyProbe } from './slots-ready-probe';

type ProbeWindow = Window & Record<string, unknown>;

function flushMutations(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function slotItem(component: string, inner: string): string {
  return `<div data-slot-component="${component}">${inner}</div>`;
}

describe('slotsReadyProbe', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
    delete (window as unknown as ProbeWindow)[READY_GLOBAL];
    // The probe is plain JavaScript for the page: run it the way addInitScript does.
    window.eval(slotsReadyProbe({ 'login-before-form': ['LoginNotice', 'Callout'], 'login-sidebar': ['Promo'] }));
  });

  it('records the time once every expected slot holds its rendered component, and not before', async () => {
    const ready = () => (window as unknown as ProbeWindow)[READY_GLOBAL];
    document.body.innerHTML =
      '<div data-slot-location="login-before-form">' +
      slotItem('LoginNotice', '<span class="slot-loading"></span>') +
      slotItem('Callout', '<aside>Callout</aside>') +
      '</div>';
    await flushMutations();
    expect(ready()).toBeUndefined();

    const notice = document.querySelector('[data-slot-component="LoginNotice"]') as HTMLElement;
    notice.innerHTML = '<section>Welcome</section>';
    await flushMutations();
    // The sidebar location is still missing.
    expect(ready()).toBeUndefined();

    document.body.insertAdjacentHTML(
      'beforeend',
      `<div data-slot-location="login-sidebar">${slotItem('Promo', '<p>Promo</p>')}</div>`,
    );
    await flushMutations();
    expect(typeof ready()).toBe('number');
  });

  it('does not count a failed slot, a slot in another order or an empty one as rendered', async () => {
    const ready = () => (window as unknown as ProbeWindow)[READY_GLOBAL];
    document.body.innerHTML =
      '<div data-slot-location="login-before-form">' +
      slotItem('Callout', '<aside>Callout</aside>') +
      slotItem('LoginNotice', '<section>Welcome</section>') +
      '</div>' +
      `<div data-slot-location="login-sidebar"><div data-slot-component="Promo" data-slot-failed="load"><p>x</p></div></div>`;
    await flushMutations();
    expect(ready()).toBeUndefined();

    document.querySelector('[data-slot-location="login-before-form"]')!.innerHTML =
      slotItem('LoginNotice', '<section>Welcome</section>') + slotItem('Callout', '');
    document.querySelector('[data-slot-component="Promo"]')!.removeAttribute('data-slot-failed');
    await flushMutations();
    expect(ready()).toBeUndefined();

    document.querySelector('[data-slot-component="Callout"]')!.innerHTML = '<aside>Callout</aside>';
    await flushMutations();
    expect(typeof ready()).toBe('number');
  });
});
