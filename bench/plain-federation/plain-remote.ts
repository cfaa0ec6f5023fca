/**
 * A remote of the plain side: its container name and the components it exposes (`./<Component>`). Its own file:
 * the entry (start-plain-host.ts) loads the application behind the async boundary (bootstrap.tsx), and both take it.
 */
export interface PlainRemote {
  name: string;
  components: readonly string[];
  /** Those of its components a resource form may show too (the global registry). */
  formComponents: readonly string[];
}
