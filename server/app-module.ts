import type { Express } from 'express';
import type { ServerReadiness } from './readiness-checks';

/** What a module reports of the server's readiness checks, by name (READINESS_CHECKS), for `GET /readyz`. */
export type Readiness = ServerReadiness;

/**
 * One server concept's part in the app (slots, records, remotes, releases, ...): the module builds its parts from
 * what it is given, and the app calls these in the order of its module list (server/app.ts), closing in reverse.
 *
 * Starting has three steps so that one list order serves them all: every module `load`s what this host serves from
 * the database first (releases in force, placements), then every module `start`s talking to the outside and working
 * in the background (remotes asked, the slot check run against their answers, timers), and last writes what the start
 * changes for every host (`afterStart`), once nothing can refuse it. Events between concepts go through what a
 * module declares (its `onChange`, its hooks), never through the app relaying them.
 */
export interface AppModule {
  /** Routes every visitor reaches before the session step (`GET /slots`, sign-in counters). */
  mountPublic?(app: Express): void;
  /** The module's API routes, after the session step. */
  mountRoutes?(app: Express): void;
  /** Documents and files, after every API route and the documents' security headers. */
  mountFiles?(app: Express): void;
  load?(): Promise<void>;
  start?(): Promise<void> | void;
  /**
   * Once every module started and the start's slot check passed: what this host's start changes for every host (a
   * new REMOTES_CONFIG entry made the release in force), so that a start refused for its slots changes nothing shared.
   */
  afterStart?(): Promise<void>;
  /**
   * Called in reverse order, but not waiting for the modules after it to have closed: what it awaits (a last write)
   * may need the database, which closes once every other module has, never another module's parts (App.close).
   */
  close?(): Promise<void> | void;
  /** Checks of this module that `/readyz` joins to the others. */
  readiness?(): Promise<Readiness>;
}
