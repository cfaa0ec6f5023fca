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
 * The next step of a publish refused because a file of the release is not on its origin, naming where its files go
 * and the URL asked; null for any other answer (a 403 or a 500 is the origin's doing, which deploying again would not
 * mend). Without it the refusal said only that the file "answered 404", and a team had to guess that the server
 * asks the origin itself, and that its upload must come first.
 */
export function notDeployedStep(answer: ErrorAnswer | undefined): string | null {
  if (answer === undefined || !NOT_THERE.has(answer.status)) return null;
  const folder = new URL('.', answer.url).href;
  return (
    `Deploy the release's files (the whole dist/ folder of its build) to ${folder} before publishing it, so that ` +
    `${answer.url} answers, then publish again.`
  );
}
