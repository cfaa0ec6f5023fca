import { act, render, screen } from '@testing-library/react';
import { useOverflowing } from './use-overflowing';

/** What jsdom, which lays nothing out, says the frame (clientWidth) and its content (scrollWidth) measure. */
const widths = { frame: 600, content: 600 };

function Frame() {
  const { ref, overflowing } = useOverflowing<HTMLDivElement>();
  return (
    <div ref={ref} data-testid="frame" data-overflowing={overflowing || undefined}>
      <table />
    </div>
  );
}

const overflowing = () => screen.getByTestId('frame').hasAttribute('data-overflowing');

describe('useOverflowing', () => {
  const original = globalThis.ResizeObserver;
  beforeEach(() => {
    widths.frame = 600;
    widths.content = 600;
    jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => widths.frame);
    jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => widths.content);
  });
  afterEach(() => {
    globalThis.ResizeObserver = original;
    jest.restoreAllMocks();
  });

  it('follows the frame and its content through a ResizeObserver', () => {
    const observed: Element[] = [];
    let resized = () => undefined as void;
    globalThis.ResizeObserver = class {
      constructor(callback: () => void) {
        resized = callback;
      }
      observe(element: Element) {
        observed.push(element);
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    widths.content = 900;
    render(<Frame />);
    expect(overflowing()).toBe(true);
    // The frame and the table in it are both followed: either may change size alone.
    expect(observed.map((element) => element.tagName)).toEqual(['DIV', 'TABLE']);

    widths.frame = 1200;
    act(() => resized());
    expect(overflowing()).toBe(false);

    // A pixel of rounding at some zoom levels is no scroll.
    widths.content = 1201;
    act(() => resized());
    expect(overflowing()).toBe(false);
  });

  it('follows the window where ResizeObserver does not exist', () => {
    // @ts-expect-error: a browser without it
    delete globalThis.ResizeObserver;
    render(<Frame />);
    expect(overflowing()).toBe(false);
    widths.frame = 320;
    widths.content = 700;
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(overflowing()).toBe(true);
  });
});
