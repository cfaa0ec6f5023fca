/**
 * In CI (CI=true, set by .ci/run) a failing test runs once more, and its first failure is printed first.
 *
 * The suites drive real processes (PostgreSQL, redis-server, server processes, Chromium) on a two-core machine
 * shared by two Jest workers, and a connection or child start that outlasts its time limit under that load once
 * failed a whole run. A second failure still fails the run; a test that needed its second try shows in the log
 * ("retrying" with the first error) and is a flaky test to mend, not one to ignore. Locally nothing is retried.
 */
if (process.env.CI === 'true') {
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
}
