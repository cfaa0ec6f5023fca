// Its own module, not placements.ts: the shell imports that one (the editor's path) and would carry these, which only
// the placements editor's page (a chunk of its own) and the server use.

/**
 * The most JSON one placements request may carry (a draft saved, a file imported, a document previewed): a document
 * may be larger than a record, with every remote's slots and their props. Over it, the server answers 413.
 */
export const PLACEMENTS_BODY_LIMIT_BYTES = 512 * 1024;

/** The limit in the words the server's 413 and the editor's message use: `512 KiB`. */
export const PLACEMENTS_BODY_LIMIT = `${PLACEMENTS_BODY_LIMIT_BYTES / 1024} KiB`;
