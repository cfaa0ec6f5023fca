import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { useConfirmQuestion } from './confirm-question';
import { fakeModalDialogs } from '../../testing/host/modal-dialogs';

fakeModalDialogs();

/** A page with one asking button; what it was answered is shown, and a confirmed answer removes the button. */
function Page() {
  const { ask, dialog } = useConfirmQuestion();
  const [answers, setAnswers] = useState<boolean[]>([]);
  const done = answers.includes(true);
  return (
    <>
      {!done && (
        <button
          type="button"
          onClick={() =>
            void ask({ title: 'Activate 1.2.0?', body: 'Every host serves it.', confirmLabel: 'Activate' }).then(
              (answer) => setAnswers((before) => [...before, answer]),
            )
          }
        >
          Activate 1.2.0
        </button>
      )}
      <p data-answers>{answers.join(',')}</p>
      {dialog}
    </>
  );
}

async function openFrom(button: HTMLElement): Promise<HTMLDialogElement> {
  button.focus();
  fireEvent.click(button);
  return (await screen.findByRole('dialog', { name: 'Activate 1.2.0?' })) as HTMLDialogElement;
}

const answers = () => document.querySelector('[data-answers]')?.textContent;

describe('the app’s confirmation dialog', () => {
  it('is named by its question, described by what it does, and opens with the focus on Cancel', async () => {
    render(<Page />);
    const dialog = await openFrom(screen.getByRole('button', { name: 'Activate 1.2.0' }));
    expect(dialog.open).toBe(true);
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Every host serves it.',
    );
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    // The action first, then Cancel: Shift+Tab reaches it.
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Activate', 'Cancel']);
  });

  it('cancels on Escape and on Cancel, answering no and giving the focus back to the button that asked', async () => {
    render(<Page />);
    const button = screen.getByRole('button', { name: 'Activate 1.2.0' });
    let dialog = await openFrom(button);
    fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(button);
    await act(async () => undefined);
    expect(answers()).toBe('false');

    dialog = await openFrom(button);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(button);
    await act(async () => undefined);
    expect(answers()).toBe('false,false');
  });

  it('asks again at once after Escape: the first closing’s close event, which comes later, ends nothing', async () => {
    render(<Page />);
    const button = screen.getByRole('button', { name: 'Activate 1.2.0' });
    const dialog = await openFrom(button);
    fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(document.activeElement).toBe(button);
    // Enter on the asking button before the browser has fired the close event of the closing (a busy page).
    fireEvent.click(button);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    const again = await screen.findByRole('dialog', { name: 'Activate 1.2.0?' });
    expect((again as HTMLDialogElement).open).toBe(true);
    expect(document.activeElement).toBe(within(again).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(again).getByRole('button', { name: 'Activate' }));
    await act(async () => undefined);
    expect(answers()).toBe('false,true');
  });

  it('answers yes when confirmed, and leaves a focus the page placed (or a button since gone) alone', async () => {
    render(<Page />);
    const dialog = await openFrom(screen.getByRole('button', { name: 'Activate 1.2.0' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(dialog.open).toBe(false);
    await act(async () => undefined);
    expect(answers()).toBe('true');
    // The asking button went with the change: the focus is not left on a removed element.
    expect(screen.queryByRole('button', { name: 'Activate 1.2.0' })).toBeNull();
    expect(document.activeElement?.isConnected).toBe(true);
  });

  it('answers an open question with no when asked another, and when the page goes', async () => {
    let asking: ReturnType<typeof useConfirmQuestion> | null = null;
    function Asker() {
      asking = useConfirmQuestion();
      return asking.dialog;
    }
    const { unmount } = render(<Asker />);
    const question = { title: 'One?', body: 'one', confirmLabel: 'Yes' };
    let first: Promise<boolean> = Promise.resolve(true);
    let second: Promise<boolean> = Promise.resolve(true);
    act(() => {
      first = asking!.ask(question);
    });
    act(() => {
      second = asking!.ask({ ...question, title: 'Two?' });
    });
    await expect(first).resolves.toBe(false);
    expect(screen.getByRole('dialog', { name: 'Two?' })).toBeTruthy();
    unmount();
    await expect(second).resolves.toBe(false);
  });
});
