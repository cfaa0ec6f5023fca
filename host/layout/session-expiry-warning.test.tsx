import { act, fireEvent, render, screen } from '@testing-library/react';
import type { SessionTimePayload } from '../../shared';
import { ApiClientProvider, SlotSourceProvider, type SlotSource } from '../core';
import { createFakeApi, UNAUTHENTICATED, type FakeApi } from '../../testing/host/fake-api';
import { createTestSlotSource } from '../../testing/host/slot-source';
import { SESSION_WARNING_ANNOUNCEMENTS, SessionExpiryWarning, warningLeadMs } from './session-expiry-warning';

/** A four-minute idle limit: keep-alives a minute apart at most, the warning a minute before the end. */
const IDLE_MS = 4 * 60_000;
const WARNING = { name: 'Your session is about to end' };

/**
 * The server's two session routes over the faked clock: `POST /session` is use (the idle limit starts again),
 * `GET /session` only measures; `absoluteAt` is when the session ends however busy.
 */
function sessionServer(absoluteAt = 8 * 60 * 60_000, endedAt = Infinity, idleMs = IDLE_MS): FakeApi {
  let lastSeen = Date.now();
  const time = (): SessionTimePayload => ({
    idleEndsInMs: Math.max(0, lastSeen + idleMs - Date.now()),
    absoluteEndsInMs: Math.max(0, absoluteAt - Date.now()),
    idleTimeoutMs: idleMs,
  });
  // Past either limit, or once ended on the server for its own reasons (`endedAt`), the session is gone.
  const gone = () => Date.now() >= Math.min(lastSeen + idleMs, absoluteAt, endedAt);
  return createFakeApi({
    'GET /session': () => (gone() ? UNAUTHENTICATED : { body: time() }),
    'POST /session': () => {
      if (gone()) return UNAUTHENTICATED;
      lastSeen = Date.now();
      return { body: time() };
    },
  });
}

let source: SlotSource;

async function renderSignedIn(api: FakeApi): Promise<HTMLInputElement> {
  source = createTestSlotSource(api, { signedIn: true });
  render(
    <ApiClientProvider client={api.client}>
      <SlotSourceProvider source={source}>
        <label>
          Title <input />
        </label>
        <button type="button">Elsewhere</button>
        <SessionExpiryWarning />
      </SlotSourceProvider>
    </ApiClientProvider>,
  );
  await act(async () => undefined);
  return screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement;
}

async function wait(ms: number): Promise<void> {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
}

describe('SessionExpiryWarning', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('counts typing in the page as use: someone typing every half second is never warned nor signed out', async () => {
    const api = sessionServer();
    const title = await renderSignedIn(api);
    title.focus();
    // Six minutes, half again the idle limit, of typing without saving.
    for (let elapsed = 0; elapsed < 6 * 60_000; elapsed += 500) {
      fireEvent.keyDown(title, { key: 'a' });
      fireEvent.input(title, { target: { value: `${title.value}a` } });
      await wait(500);
      expect(screen.queryByRole('alertdialog', WARNING)).toBeNull();
    }
    // A keep-alive a minute at most, the first a minute after the page's own requests.
    expect(api.count('POST', '/session')).toBe(5);
    expect(document.activeElement).toBe(title);
  });

  it('announces a keyboard way when warned in a text box, and Escape there stays signed in, the focus kept', async () => {
    const api = sessionServer();
    const title = await renderSignedIn(api);
    title.focus();
    await wait(3 * 60_000 + 1_000);
    expect(screen.getByRole('alertdialog', WARNING).textContent).toContain(
      'Press Esc, or go on working, to stay signed in.',
    );
    expect(document.activeElement).toBe(title);
    expect(document.querySelector('[aria-live="assertive"]')?.textContent).toBe(SESSION_WARNING_ANNOUNCEMENTS.idle);

    fireEvent.keyDown(title, { key: 'Escape' });
    await wait(0);
    expect(screen.queryByRole('alertdialog', WARNING)).toBeNull();
    // Escape counted as use and as the shortcut: one request.
    expect(api.count('POST', '/session')).toBe(1);
    expect(document.activeElement).toBe(title);
  });

  it('shows at the top when the text box being typed in is in the lower half of the window, which it would cover', async () => {
    const api = sessionServer();
    const title = await renderSignedIn(api);
    const placed = (top: number) =>
      jest.spyOn(title, 'getBoundingClientRect').mockReturnValue({ top, height: 30, bottom: top + 30 } as DOMRect);
    placed(window.innerHeight - 100);
    title.focus();
    await wait(3 * 60_000 + 1_000);
    expect(screen.getByRole('alertdialog', WARNING).className).toBe('session-warning session-warning--top');
    fireEvent.keyDown(title, { key: 'Escape' });
    await wait(0);

    // In the upper half, at the bottom as ever.
    placed(40);
    await wait(3 * 60_000 + 1_000);
    expect(screen.getByRole('alertdialog', WARNING).className).toBe('session-warning');
  });

  it('gives its button the focus when not typing, and it back once the session is kept by a click elsewhere', async () => {
    const api = sessionServer();
    await renderSignedIn(api);
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    await wait(3 * 60_000 + 1_000);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
    fireEvent.pointerDown(document.body);
    await wait(0);
    expect(screen.queryByRole('alertdialog', WARNING)).toBeNull();
    expect(api.count('POST', '/session')).toBe(1);
    expect(document.activeElement).toBe(elsewhere);
  });

  it('at a one-minute idle limit warns 30 s before the end, time to act, not a quarter of it (15 s)', async () => {
    await renderSignedIn(sessionServer(8 * 60 * 60_000, Infinity, 60_000));
    await wait(29_000);
    expect(screen.queryByRole('alertdialog', WARNING)).toBeNull();
    await wait(2_000);
    expect(screen.getByRole('alertdialog', WARNING).textContent).toMatch(/You will be signed out in 0:(29|30) /);
  });

  it('at a one-minute idle limit still never warns someone typing every half second', async () => {
    const api = sessionServer(8 * 60 * 60_000, Infinity, 60_000);
    const title = await renderSignedIn(api);
    title.focus();
    for (let elapsed = 0; elapsed < 3 * 60_000; elapsed += 500) {
      fireEvent.keyDown(title, { key: 'a' });
      await wait(500);
      expect(screen.queryByRole('alertdialog', WARNING)).toBeNull();
    }
  });

  it('past the absolute limit, sends no keep-alive and Escape closes the warning', async () => {
    const api = sessionServer(3 * 60_000);
    const title = await renderSignedIn(api);
    title.focus();
    await wait(2 * 60_000 + 1_000);
    expect(screen.getByRole('alertdialog', WARNING).textContent).toContain('Press Esc to close.');
    fireEvent.keyDown(title, { key: 'x' });
    fireEvent.keyDown(title, { key: 'Escape' });
    await wait(0);
    expect(screen.queryByRole('alertdialog', WARNING)).toBeNull();
    expect(api.count('POST', '/session')).toBe(0);
  });

  it('ends the session at the idle limit saying so, for the sign-in page to tell why', async () => {
    const api = sessionServer();
    await renderSignedIn(api);
    // A second at a time once warned, as the warning counts down and asks again at the end.
    await wait(IDLE_MS - 60_000 + 1_000);
    for (let second = 0; second < 61; second += 1) await wait(1_000);
    expect(source.session.snapshot()).toMatchObject({
      status: 'anonymous',
      expired: true,
      ended: { cause: 'idle', idleTimeoutMs: IDLE_MS },
    });
  });

  it('ends it at the absolute limit saying so', async () => {
    const api = sessionServer(3 * 60_000);
    await renderSignedIn(api);
    await wait(2 * 60_000 + 1_000);
    for (let second = 0; second < 61; second += 1) await wait(1_000);
    expect(source.session.snapshot()).toMatchObject({ expired: true, ended: { cause: 'absolute-limit' } });
  });

  it('tells no cause for a session ended on the server before its limits (a password change, an account disabled)', async () => {
    const api = sessionServer(8 * 60 * 60_000, 30_000);
    await renderSignedIn(api);
    // The tab shows again: its check finds the session gone long before its idle limit.
    await wait(60_000);
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await wait(0);
    expect(source.session.snapshot()).toMatchObject({ status: 'anonymous', expired: true, ended: null });
  });

  it('asks again as soon as the connection is back, before anything is typed', async () => {
    const api = sessionServer();
    await renderSignedIn(api);
    const asked = api.count('GET', '/session');
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    await wait(0);
    expect(api.count('GET', '/session')).toBe(asked + 1);
  });
});

describe('warningLeadMs', () => {
  it('is 30 s at least, a quarter of the idle limit from two minutes, two minutes from eight up', () => {
    expect(warningLeadMs(60_000)).toBe(30_000);
    expect(warningLeadMs(90_000)).toBe(30_000);
    expect(warningLeadMs(2 * 60_000)).toBe(30_000);
    expect(warningLeadMs(3 * 60_000)).toBe(45_000);
    expect(warningLeadMs(4 * 60_000)).toBe(60_000);
    expect(warningLeadMs(8 * 60_000)).toBe(120_000);
    expect(warningLeadMs(30 * 60_000)).toBe(120_000);
  });

  it('is half an idle limit under a minute, so it stays below the limit and the time left to someone working', () => {
    expect(warningLeadMs(12_000)).toBe(6_000);
    expect(warningLeadMs(40_000)).toBe(20_000);
    expect(warningLeadMs(59_000)).toBe(29_500);
  });
});
