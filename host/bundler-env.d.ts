/**
 * The one Node-style name host code may use: webpack replaces `process.env.NODE_ENV` with the build's mode (a string
 * literal) when it bundles the host, and Jest's environments define it. Nothing else of `process` exists in a
 * browser, so the host compiles without the Node types and declares only this.
 */
declare var process: { readonly env: { readonly NODE_ENV?: string } };
