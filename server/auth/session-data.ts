/** What the server keeps in a session besides passport's own entry. */
declare module 'express-session' {
  interface SessionData {
    /** When the user signed in (ms since epoch): the absolute timeout counts from here. */
    createdAt: number;
    /** Last request of the user (ms since epoch), kept to within a small step: the idle timeout counts from here. */
    lastSeenAt: number;
    /** Id of the tenant the user works in. */
    tenant: string;
    /** Written by passport on sign-in. */
    passport: { user?: unknown };
  }
}

export {};
