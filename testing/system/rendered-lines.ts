import type { Page } from 'playwright-core';

/** An element's text, and the text of each line Chromium laid it out on. */
export interface RenderedText {
  text: string;
  lines: string[];
}

export interface RenderedLinesOptions {
  /** Text inside elements this selector matches is not read (e.g. `pre`: JSON shown aside keeps its own lines). */
  skip?: string;
}

/**
 * Every element `selector` finds, with the lines its text is drawn on: a line starts where a character's box sits
 * lower than the one before; a character without a box (a space where the line wraps) ends the line it follows.
 * What the tests of where names and words break read (the catalogue's, the inspector's, a phone's).
 */
export function renderedLines(
  page: Page,
  selector: string,
  options: RenderedLinesOptions = {},
): Promise<RenderedText[]> {
  return page.evaluate(
    ({ selector, skip }) =>
      [...document.querySelectorAll(selector)].map((element) => {
        const lines: string[] = [];
        let top: number | null = null;
        const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT, {
          acceptNode: (node) =>
            skip !== undefined && node.parentElement?.closest(skip)
              ? NodeFilter.FILTER_REJECT
              : NodeFilter.FILTER_ACCEPT,
        });
        for (let text = texts.nextNode(); text; text = texts.nextNode()) {
          const content = text.textContent ?? '';
          for (let index = 0; index < content.length; index++) {
            const range = document.createRange();
            range.setStart(text, index);
            range.setEnd(text, index + 1);
            const box = [...range.getClientRects()].find((each) => each.width > 0);
            if (box && (top === null || Math.abs(box.top - top) > 2)) lines.push('');
            if (box) top = box.top;
            if (lines.length > 0) lines[lines.length - 1] = `${lines.at(-1)}${content.charAt(index)}`;
          }
        }
        return { text: element.textContent ?? '', lines };
      }),
    { selector, skip: options.skip },
  );
}
