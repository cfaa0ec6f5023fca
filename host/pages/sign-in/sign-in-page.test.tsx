import '../../../testing/host/router-globals';
import { act, screen } from '@testing-library/react';
import { SIGN_IN_PATH, type SlotMap } from '../../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeResponse } from '../../../testing/host/fake-api';
import { renderAppAt, renderAppOnceSlotsAt } from '../../../testing/host/render-app';

const SLOTS: SlotMap = {
  'header-banner': [{ component: 'Text', props: { text: 'maintenance tonight' } }],
  'global-before-content': [{ component: 'Text', props: { text: 'all systems normal' } }],
  'login-before-form': [{ component: 'Text', props: { text: 'use your staff account' } }],
  'login-after-form': [{ component: 'Text', props: { text: 'forgot your password?' } }],
};

function Text({ text }: { text: string }) {
  return <span>{text}</span>;
}

/** The locations in the order the page shows them, the form among them. */
function pageOrder(): string[] {
  return [...document.querySelectorAll('[data-slot-location]:not(:empty), form')].map(
    (element) => element.getAttribute('data-slot-location') ?? 'form',
  );
}

describe('the sign-in page', () => {
  it('puts the slots that would go above the form below it when GET /slots answers after the form is drawn', async () => {
    let answer: (response: FakeResponse) => void = () => undefined;
    const fake = createFakeApi({
      'GET /me': UNAUTHENTICATED,
      'GET /slots': () => new Promise<FakeResponse>((resolve) => (answer = resolve)),
    });
    renderAppAt(fake, SIGN_IN_PATH, { Text });
    await screen.findByRole('heading', { name: 'Sign in' });

    await act(async () => answer({ body: { slots: SLOTS } }));
    await screen.findByText('maintenance tonight');
    expect(pageOrder()).toEqual([
      'form',
      'header-banner',
      'global-before-content',
      'login-before-form',
      'login-after-form',
    ]);
    // Each location once: the header and the layout leave theirs to the page.
    expect(document.querySelectorAll('[data-slot-location="header-banner"]')).toHaveLength(1);
    expect(document.querySelectorAll('[data-slot-location="global-before-content"]')).toHaveLength(1);
    expect(document.querySelector('header [data-slot-location="header-banner"]')).toBeNull();
  });

  it('keeps them in their places when GET /slots had answered before the page was drawn', async () => {
    const fake = createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { body: { slots: SLOTS } } });
    await renderAppOnceSlotsAt(fake, SIGN_IN_PATH, { Text });
    await screen.findByText('maintenance tonight');
    expect(pageOrder()).toEqual([
      'header-banner',
      'global-before-content',
      'login-before-form',
      'form',
      'login-after-form',
    ]);
  });
});
