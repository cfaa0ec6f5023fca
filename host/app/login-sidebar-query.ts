/** Desktop widths only (DESIGN.md point 14): below this the sign-in page's sidebar slots are not rendered, nor fetched. */
export const LOGIN_SIDEBAR_QUERY = '(min-width: 1024px)';
