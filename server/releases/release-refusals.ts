/**
 * The fixed texts of the releases API's refusals (400) that name no release: constants, so the host and tests can
 * rely on them. Refusals about a particular release or remote build their message where they are made.
 */
export const RELEASE_REFUSALS = {
  /** An activation, rollback, canary or preview whose body has no `version` string. */
  versionRequired: '"version" is required: the version of one of the remote\'s releases, as a string.',
  /** 0 % and no tenant: the canary would reach nobody, and an operator would believe it runs. */
  canaryOfNobody: 'A canary needs a share above 0 % or a tenant: 0 % and no tenant gives it to nobody.',
  /**
   * What to do about a release whose files its origin answers cannot load (release-files-refusal.ts), after what
   * was asked, what it answered and what stays in force; a file not there (403, 404, 410) is told what to deploy
   * where instead, then orAnotherRelease.
   */
  unloadableRelease:
    "Have its origin serve the release's files as it did when they were published (CORS included), or choose " +
    'another release.',
  /**
   * After the step a file not there asks for (release-not-deployed.ts, as a publish says it) when a release is put in
   * force: the other way out.
   */
  orAnotherRelease: 'Or choose another release.',
} as const;
