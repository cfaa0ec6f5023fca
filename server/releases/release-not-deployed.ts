/** An error status a file of a release answered, and the URL it was asked at. */
export interface ErrorAnswer {
  url: string;
  status: number;
}

/**
 * The statuses that say a file is not on its origin at all (never deployed there, or deleted since), rather than
 * refused or failing: what a team publishing before its upload finished, or to another folder, gets.
 */
const NOT_THERE: ReadonlySet<number> = new Set([404, 410]);

/**
 * What S3 and the object stores made like it answer for an object they do not hold when the reader may not list the
 * bucket (an anonymous reader of a public-read bucket, the usual origin of remotes): the file may be missing as well
 * as refused, and a team publishing before its upload finished got no hint that it was the former.
 */
const MISSING_OR_REFUSED = 403;

/**
 * When a file of a release was found not there: `publishing` (its team publishing it), or `in force` (an operator
 * activating it, rolling back to it, giving it as a canary, starting or promoting a rollout of it: its files were
 * there when it was published, and are asked again, release-files-refusal.ts).
 */
export type NotDeployedWhen = 'publishing' | 'in force';

/**
 * The next step of a publish, or of putting a release in force, refused because a file of the release is not on its
 * origin, naming where its files go and the URL asked; for a 403, that the file may be missing (not yet uploaded, or
 * deleted since) or refused; null for any other answer (a 500 is the origin's doing, which deploying again would not
 * mend). Without it the refusal said only that the file "answered 404", and a team had to guess that the server asks
 * the origin itself, and that its upload must come first.
 */
export function notDeployedStep(answer: ErrorAnswer | undefined, when: NotDeployedWhen = 'publishing'): string | null {
  if (answer === undefined) return null;
  const forbidden = answer.status === MISSING_OR_REFUSED;
  if (!forbidden && !NOT_THERE.has(answer.status)) return null;
  const folder = new URL('.', answer.url).href;
  const files = "the release's files (the whole dist/ folder of its build)";
  const deploy =
    when === 'publishing'
      ? `${files} to ${folder} before publishing it, so that ${answer.url} answers, then publish again`
      : `${files} to ${folder} again, so that ${answer.url} answers, then try again`;
  if (!forbidden) return `Deploy ${deploy}.`;
  const absent = when === 'publishing' ? 'not uploaded yet' : 'not there any more';
  return (
    'The file may be missing: a storage such as S3 answers 403 for a file it does not hold when it may not list its ' +
    `folder to the reader. If it is ${absent}, deploy ${deploy}; if it is, have the storage let anyone read ` +
    "the release's files, as the pages load them without credentials."
  );
}
