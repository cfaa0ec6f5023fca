import type { Logger } from 'pino';
import { formatSlotProblem, SlotContractError, type SlotProblem } from './slot-contract';

/**
 * What `fail` and `log` do with slot-check problems (AppOptions.slotProblems): `fail` refuses the start on a slot
 * that cannot render, `log` logs it and starts anyway (test and benchmark entries placing components no remote
 * provides on purpose).
 */
export type SlotProblemsMode = 'fail' | 'log';

/**
 * What becomes of a slot of code the check cannot clear without its remote: the check cannot know a component of a
 * remote that does not answer, so a misspelt name passes the start then, and is told here and again when it answers.
 */
export const CODE_SLOTS_WAITING =
  'Slots of code among them are served meanwhile: one naming a component its remote does not provide fails where ' +
  'a page renders it, and is logged as an error when the remote answers. Check the names (a "did you mean" names ' +
  'a component of a remote that answers).';

/** What becomes of a slot of code that fails the check once the server is started (a remote answered since). */
export const CODE_SLOTS_SERVED =
  'The slots of code among them stay registered and fail where a page renders them: correct them in the code and ' +
  'restart.';

/**
 * How slot-check problems are reported. At start-up, blocking problems reject the start (mode `fail`) or are logged;
 * afterwards (a remote answering late) they are only logged. Each problem is logged once, so a remote answering
 * again does not repeat it: those that stop a slot as one error, those that may resolve as a warning.
 */
export class SlotCheckReporter {
  /** Problems already logged, by their message. */
  private readonly reported = new Set<string>();
  /** Set once the start-up check passed: later problems are logged, never fatal. */
  private started = false;

  constructor(
    private readonly logger: Logger,
    private readonly mode: SlotProblemsMode,
  ) {}

  /** The start-up check: throws a {@link SlotContractError} listing the blocking problems in mode `fail`. */
  atStart(problems: readonly SlotProblem[]): void {
    const blocking = problems.filter((problem) => problem.blocking);
    if (blocking.length > 0 && this.mode === 'fail') throw new SlotContractError(blocking);
    this.log(problems);
    this.started = true;
  }

  /**
   * The problems a registration after `ready()` brings (those it adds): thrown as a {@link SlotContractError} when
   * one is blocking in mode `fail`, as the start-up check would have, so the caller keeps nothing of it; else logged.
   */
  atRegistration(problems: readonly SlotProblem[]): void {
    const blocking = problems.filter((problem) => problem.blocking);
    if (blocking.length > 0 && this.mode === 'fail') throw new SlotContractError(blocking);
    this.log(problems);
  }

  /** A check after a change (a remote answered): logged once the start-up check has run, ignored before it. */
  afterChange(problems: () => readonly SlotProblem[]): void {
    if (this.started) this.log(problems());
  }

  private log(problems: readonly SlotProblem[]): void {
    const fresh = problems.filter((problem) => {
      const message = formatSlotProblem(problem);
      if (this.reported.has(message)) return false;
      this.reported.add(message);
      return true;
    });
    const blocking = fresh.filter((problem) => problem.blocking);
    const warnings = fresh.filter((problem) => problem.kind === 'form-component-outside-form');
    // A remote switched off is not asked again: its slots wait for an operator, not for an answer.
    const switchedOff = fresh.filter((problem) => problem.kind === 'remote-disabled');
    const waiting = fresh.filter(
      (problem) => !problem.blocking && !warnings.includes(problem) && !switchedOff.includes(problem),
    );
    if (blocking.length > 0) {
      // After the start nothing is refused any more: a configured slot that cannot render is left out of the payloads
      // (code's slots stay, and fail in the browser as any unknown component does).
      const leftOut = this.started && blocking.some((problem) => problem.source !== 'code');
      const ofCode = blocking.some((problem) => problem.source === 'code');
      const consequence =
        (leftOut ? '\nThe REMOTES_CONFIG slots among them are left out until that changes.' : '') +
        (ofCode ? `\n${CODE_SLOTS_SERVED}` : '');
      this.logger.error({ slots: blocking.length }, `${new SlotContractError(blocking).message}${consequence}`);
    }
    if (warnings.length > 0) {
      this.logger.warn(
        { slots: warnings.length },
        `Slots that may fail where they are placed:\n${warnings.map((p) => `  - ${formatSlotProblem(p)}`).join('\n')}`,
      );
    }
    if (switchedOff.length > 0) {
      this.logger.warn(
        { slots: switchedOff.length },
        'Slots left out while their remote is switched off ("enabled": false in REMOTES_CONFIG):\n' +
          switchedOff.map((p) => `  - ${formatSlotProblem(p)}`).join('\n'),
      );
    }
    if (waiting.length > 0) {
      this.logger.warn(
        { slots: waiting.length },
        `Slots checked again when their remote answers:\n${waiting.map((p) => `  - ${formatSlotProblem(p)}`).join('\n')}` +
          (waiting.some((problem) => problem.source === 'code') ? `\n${CODE_SLOTS_WAITING}` : ''),
      );
    }
  }
}
