/** Stylesheets are bundled by webpack (experiments.css) and linked from index.html. */
declare module '*.css';
