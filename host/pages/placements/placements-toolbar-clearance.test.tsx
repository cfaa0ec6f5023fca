import { act, render } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOLBAR_HEIGHT_PROPERTY, useToolbarClearance } from './placements-toolbar-clearance';

function Toolbar() {
  return <div className="placements__toolbar" ref={useToolbarClearance()} />;
}

describe('the clearance of the placements editor’s sticky toolbar', () => {
  const original = globalThis.ResizeObserver;
  afterEach(() => {
    globalThis.ResizeObserver = original;
  });

  it('keeps the toolbar’s height on the document’s root as it changes, and takes it away with the toolbar', () => {
    let resized: (() => void) | null = null;
    globalThis.ResizeObserver = class {
      constructor(callback: () => void) {
        resized = callback;
      }
      observe() {}
      disconnect() {
        resized = null;
      }
    } as unknown as typeof ResizeObserver;
    let height = 96;
    const spy = jest.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => height);
    try {
      const root = document.documentElement;
      const { unmount } = render(<Toolbar />);
      expect(root.style.getPropertyValue(TOOLBAR_HEIGHT_PROPERTY)).toBe('96px');
      // Its status wraps onto another line (a phone): the clearance follows.
      height = 140;
      act(() => resized?.());
      expect(root.style.getPropertyValue(TOOLBAR_HEIGHT_PROPERTY)).toBe('140px');
      unmount();
      expect(root.style.getPropertyValue(TOOLBAR_HEIGHT_PROPERTY)).toBe('');
      expect(resized).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });

  it('is the document’s scroll padding while the editor is shown, so focus and headings land below the toolbar', () => {
    const css = readFileSync(path.join(__dirname, 'placements.css'), 'utf8');
    const rule = /html:has\(\.placements__toolbar\)\s*\{([^}]*)\}/.exec(css);
    expect(rule?.[1]).toContain(`scroll-padding-top: calc(var(${TOOLBAR_HEIGHT_PROPERTY},`);
    // No fixed clearance left that the toolbar, taller on a phone, outgrows.
    expect(css).not.toMatch(/\[data-placements-location\] h2[^{]*\{\s*scroll-margin-top: 6rem/);
  });
});
