/*
 * Above 300 lines for one reason: the draft, its check and diff, publish, rollback and taking the newest revision
 * on this host all work on the same revision in force and the same file; HTTP is placements-router.ts's, storage
 * placements-store.ts's.
 */
import type { Logger } from 'pino';
import {
  sameDraftVersion,
  type JsonValue,
  type PlacementChange,
  type PlacementComponentsPayload,
  type PlacementPreview,
  type PlacementProblem,
  type PlacementRevision,
  type PlacementsDraft,
  type PlacementsDiffPayload,
  type PlacementsPayload,
  type PreviewedLocation,
  type SlotLocation,
} from '../../shared';
import { repeatedFailureLog } from '../observability/repeated-failure-log';
import type { RemotesConfig } from '../remotes/remotes-config';
import type { SlotCheckSubjects } from '../slot-check/slot-check';
import { ruleShowerOf, type ReadableTenants } from '../slots/shown-rule';
import type { Viewer } from '../slots/visibility-rule';
import { checkPlacements } from './placements-check';
import { diffPlacements } from './placements-diff';
import { EMPTY_DOCUMENT, parsePlacements, withPlacements, type ParsedPlacements } from './placements-document';
import { placedWith, previewForViewer, previewPlacements } from './placements-preview';
import { revisionNumber } from './placements-request-body';
import { DraftMovedError } from './draft-version';
import { RevisionMovedError, type PlacementsStore } from './placements-store';
import { publishedRules, type KnownRuleNames } from './rule-names-check';
import { shownChanges, shownDocument, shownProblems } from './shown-placements';
import { OneReadAtATime } from '../storage/one-read-at-a-time';

/**
 * A publish or rollback refused: nothing changed; `problems` says why, slot by slot (empty for a missing revision),
 * in `document` (the draft's, or the revision's), whose listing on the editor's page names each slot.
 */
export class PlacementsRefusedError extends Error {
  constructor(
    message: string,
    readonly problems: PlacementProblem[] = [],
    readonly status: 400 | 404 = 400,
    readonly document: JsonValue | null = null,
  ) {
    super(message);
    this.name = 'PlacementsRefusedError';
  }
}

export interface PlacementsServiceParts {
  store: PlacementsStore;
  /** What the slot check reads (code's slots, resource forms, the remotes, the allow-lists). */
  subjects: SlotCheckSubjects;
  logger: Logger;
  /** The database as the operator knows it (StorageEngine.displayName), named by the lines of failed reads. */
  database: string;
  /**
   * The tenants and flags there are (readKnownRuleNames): the rules of a draft, an import, a publish or a rollback
   * may name no other, but for a rule the newest revision has unchanged (a warning: ruleNames). Read for each check
   * of an edit; never when a revision is taken (placements-check.ts).
   */
  knownRuleNames: () => Promise<KnownRuleNames>;
  /** How often the newest revision's number is read, to take one published on another host; default 1 s. */
  pollMs?: number;
}

/**
 * Placements in the database: the draft, its check and diff, publishing and rolling back revisions, and the revision
 * in force on this host. The database is the truth: every host reads the newest revision's number every `pollMs`
 * and takes a newer revision when it sees one (the host that published takes it at once), so a publish is served
 * everywhere within about a second. The revision's slots join the configuration in force after the file's
 * (withPlacements), through the remote registry as a REMOTES_CONFIG reload does; a revision this host cannot take
 * (its code or file differ from the publisher's and the check fails here) is logged and the previous one stays,
 * until a newer revision or a reload of the file (which may mend it).
 */
export class PlacementsService {
  /** The configuration of the file and the built remotes, without the database's placements. */
  private file: RemotesConfig;
  private inForce: { number: number; parsed: ParsedPlacements } | null = null;
  /** The newest revision number this host looked at, taken or refused (refused ones are not retried every poll). */
  private seen = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly reads = new OneReadAtATime();

  constructor(private readonly parts: PlacementsServiceParts) {
    this.file = parts.subjects.remoteRegistry.config;
  }

  /** Takes the revision in force (without asking the remotes again: ready() does next), then polls for newer ones. */
  async start(): Promise<void> {
    await this.refresh(false);
    const failed = repeatedFailureLog(
      this.parts.logger,
      'placements: reading the newest revision failed; asked again',
      {
        store: this.parts.database,
      },
    );
    this.timer ??= setInterval(() => {
      this.refresh().catch(failed);
    }, this.parts.pollMs ?? 1000);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The revision number in force on this host (0: none). */
  get revision(): number {
    return this.inForce?.number ?? 0;
  }

  /** The file's configuration re-read (SIGHUP), with the placements in force: what a reload checks and takes. */
  withFile(file: RemotesConfig): RemotesConfig {
    return withPlacements(file, this.inForce?.parsed ?? null);
  }

  /** A reload was taken: later revisions combine with this file, and a revision refused here is tried again. */
  tookFile(file: RemotesConfig): void {
    this.file = file;
    this.seen = this.revision;
  }

  /** Reads the newest revision's number; takes that revision when it is newer than the one looked at last. */
  refresh(askRemotes = true): Promise<void> {
    return this.reads.run(async () => {
      if ((await this.parts.store.lastNumber()) === this.seen) return;
      const latest = await this.parts.store.latest();
      if (latest) await this.take(latest, askRemotes);
    });
  }

  private async take(revision: PlacementRevision, askRemotes: boolean): Promise<void> {
    this.seen = revision.number;
    const parsed = parsePlacements(revision.document);
    const blocking = checkPlacements(this.parts.subjects, this.file, parsed).filter((problem) => problem.blocking);
    if (blocking.length > 0) {
      this.parts.logger.error(
        { revision: revision.number, problems: blocking.map((problem) => problem.message) },
        `Placements revision ${revision.number} cannot be taken on this host; revision ${this.revision} stays in force.`,
      );
      return;
    }
    this.inForce = { number: revision.number, parsed };
    const replacing = this.parts.subjects.remoteRegistry.replace(withPlacements(this.file, parsed), askRemotes);
    this.parts.logger.info({ revision: revision.number }, `Placements revision ${revision.number} in force.`);
    // Remotes not answering yet are asked in the background: a revision is in force at once, as a reload's is.
    replacing.catch((error: unknown) => this.parts.logger.warn({ err: error }, 'placements: asking remotes failed'));
  }

  /**
   * The draft (the newest revision's document when none was saved), its problems, and the newest revision (which
   * this host may not have in force: take()), each shown as
   * `readable` allows (shown-placements.ts).
   */
  async overview(readable: ReadableTenants = null): Promise<PlacementsPayload> {
    const [draft, published] = await Promise.all([this.draft(), this.parts.store.latest()]);
    return {
      draft: { ...draft, document: shownDocument(draft.document, readable) },
      ...(await this.checked(draft.document, readable)),
      published: published && { ...published, document: shownDocument(published.document, readable) },
    };
  }

  async draft(): Promise<PlacementsDraft> {
    const saved = await this.parts.store.draft();
    if (saved) return saved;
    const latest = await this.parts.store.latest();
    return { document: latest?.document ?? EMPTY_DOCUMENT, updatedBy: null, updatedAt: null };
  }

  /**
   * Saves the draft whatever its problems (it is work in progress) and says what they are; refused when
   * `expectedUpdatedAt` is given and the draft was saved since (placements-store.ts).
   */
  async saveDraft(
    document: JsonValue,
    actor: string,
    expectedUpdatedAt?: string | null,
  ): Promise<{ draft: PlacementsDraft; problems: PlacementProblem[]; preview: PlacementPreview }> {
    const draft = await this.parts.store.saveDraft(document, actor, expectedUpdatedAt);
    return { draft, ...(await this.checked(document)) };
  }

  /** What is wrong with `document`, were it published now on this host. */
  async problemsOf(document: unknown): Promise<PlacementProblem[]> {
    const parsed = parsePlacements(document);
    return checkPlacements(this.parts.subjects, this.file, parsed, await this.ruleNames());
  }

  /**
   * What the rules of an edit are checked against: the tenants and flags there are, and the rules of the newest
   * revision, which may go on naming one gone since (rule-names-check.ts).
   */
  private async ruleNames(): Promise<KnownRuleNames> {
    const [known, latest] = await Promise.all([this.parts.knownRuleNames(), this.parts.store.latest()]);
    return { ...known, published: publishedRules(latest ? parsePlacements(latest.document) : null) };
  }

  /** `document`'s problems (said as `readable` allows), and each location's order with it published (the preview). */
  private async checked(
    document: JsonValue,
    readable: ReadableTenants = null,
  ): Promise<{ problems: PlacementProblem[]; preview: PlacementPreview }> {
    const parsed = parsePlacements(document);
    const known = await this.ruleNames();
    const problems = checkPlacements(this.parts.subjects, this.file, parsed, known, readable);
    return {
      problems: shownProblems(problems, document, readable),
      preview: previewPlacements(this.parts.subjects.slots, this.file, parsed),
    };
  }

  /**
   * What `viewer` would be sent with `document` published (undefined: the saved draft), at `only` or every location:
   * the editor's rendered preview, its rules shown to someone who may read `readable`'s tenant ids. The parts of the
   * document that cannot be read are left out, and named.
   */
  async previewFor(
    document: JsonValue | undefined,
    viewer: Viewer,
    only: SlotLocation | null,
    readable: ReadableTenants = null,
  ): Promise<{ locations: Record<string, PreviewedLocation>; problems: PlacementProblem[] }> {
    const previewed = document === undefined ? (await this.draft()).document : document;
    const parsed = parsePlacements(previewed);
    const { slots, remoteRegistry } = this.parts.subjects;
    const parts = { slots, remoteRegistry, file: this.file };
    return {
      locations: previewForViewer(parts, parsed, viewer, only, ruleShowerOf(readable)),
      problems: shownProblems(parsed.problems, previewed, readable),
    };
  }

  /** The components a slot may name now, per remote, with their props schemas: what the editor's forms are made of. */
  components(): PlacementComponentsPayload {
    const { known } = this.parts.subjects.remoteRegistry.contractRemotes();
    return {
      remotes: known
        .map((remote) => ({
          name: remote.name,
          components: remote.components.map((name) => ({
            name,
            schema: remote.props?.[name] ?? null,
            form: (remote.formComponents ?? []).includes(name),
          })),
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /** The draft against the newest revision, each slot named as the editor's order names it (with this host's file). */
  async diff(readable: ReadableTenants = null): Promise<PlacementsDiffPayload> {
    const [draft, latest] = await Promise.all([this.draft(), this.parts.store.latest()]);
    const placed = (document: JsonValue) => {
      const parsed = parsePlacements(document);
      return { parsed, placed: placedWith(this.parts.subjects.slots, this.file, parsed) };
    };
    const changes = diffPlacements(placed(latest?.document ?? EMPTY_DOCUMENT), placed(draft.document));
    return {
      revision: latest?.number ?? 0,
      draft: { updatedBy: draft.updatedBy, updatedAt: draft.updatedAt },
      changes: shownChanges(changes, readable),
    };
  }

  /** Publishes the draft as the next revision, unless a problem of it blocks. */
  async publish(
    actor: string,
    expectedUpdatedAt?: string | null,
    expectedRevision?: number,
  ): Promise<PlacementRevision> {
    const [draft, last] = await Promise.all([this.draft(), this.parts.store.lastNumber()]);
    // Refused before its check when the caller saw another draft or revision; the store checks again in the write.
    if (expectedUpdatedAt !== undefined && !sameDraftVersion(draft.updatedAt, expectedUpdatedAt)) {
      throw new DraftMovedError(draft, 'publish');
    }
    await this.refuseRevisionMoved(expectedRevision, last);
    return this.publishDocument(draft.document, actor, last, 'publish', null, draft.updatedAt);
  }

  /**
   * Publishes revision `number`'s document again as the next revision, and makes it the draft: refused, as a publish
   * is, when `expectedUpdatedAt` is given and the draft was saved since, since its changes would go unseen.
   */
  async rollback(
    number: unknown,
    actor: string,
    expectedUpdatedAt?: string | null,
    expectedRevision?: number,
  ): Promise<PlacementRevision> {
    // The body's revision is a JSON number; a path's (GET /revisions/:number) is text, read by revisionNumber.
    const wanted = typeof number === 'number' ? revisionNumber(number) : null;
    if (wanted === null) {
      throw new PlacementsRefusedError(
        `"revision" must be the number of a published revision (a whole number from 1), got ${JSON.stringify(number) ?? 'nothing'}.`,
      );
    }
    const [old, draft, last] = await Promise.all([
      this.parts.store.revision(wanted),
      this.draft(),
      this.parts.store.lastNumber(),
    ]);
    if (!old) throw new PlacementsRefusedError(`There is no placements revision ${wanted}.`, [], 404);
    // Refused before its check when the caller saw another draft; the store checks again in the write.
    if (expectedUpdatedAt !== undefined && !sameDraftVersion(draft.updatedAt, expectedUpdatedAt)) {
      throw new DraftMovedError(draft, 'rollback');
    }
    await this.refuseRevisionMoved(expectedRevision, last);
    return this.publishDocument(old.document, actor, last, 'rollback', old.number, expectedUpdatedAt);
  }

  /**
   * Refuses a publish or rollback chosen while the caller saw an older revision than the newest (`last`), naming
   * who published the newest: the same draft published twice made a second revision, credited to the second operator.
   */
  private async refuseRevisionMoved(expected: number | undefined, last: number): Promise<void> {
    if (expected === undefined || expected === last) return;
    const newest = await this.parts.store.revision(last);
    throw new RevisionMovedError(expected, last, newest);
  }

  private async publishDocument(
    document: JsonValue,
    actor: string,
    checkedAgainst: number,
    action: 'publish' | 'rollback',
    restored: number | null,
    draftVersion?: string | null,
  ): Promise<PlacementRevision> {
    const blocking = (await this.problemsOf(document)).filter((problem) => problem.blocking);
    if (blocking.length > 0) {
      const what = action === 'publish' ? 'The draft' : `Revision ${restored}`;
      throw new PlacementsRefusedError(
        `${what} has ${blocking.length} problem(s); nothing was published.`,
        blocking,
        400,
        document,
      );
    }
    const revision = await this.parts.store.publish({
      document,
      action,
      restored,
      actor,
      checkedAgainst,
      setDraft: action === 'rollback',
      ...(draftVersion === undefined ? {} : { draftVersion }),
    });
    await this.refresh();
    return revision;
  }
}
