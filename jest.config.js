const fs = require('node:fs');
const path = require('node:path');

/**
 * One Jest run, several projects: the fast node and jsdom suites, then the suites that start real processes
 * (servers, Redis, Chromium). @swc/jest only strips types; `npm test` type-checks with tsc first.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];

/**
 * Standalone remote projects under remotes/ (their own package.json, made by `npm run remote:new`) run their own
 * tests with their own dependencies.
 */
const standaloneRemotes = fs
  .readdirSync(path.join(__dirname, 'remotes'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(__dirname, 'remotes', entry.name, 'package.json')))
  .map((entry) => `<rootDir>/remotes/${entry.name}/`)
  .filter((folder) => folder !== '<rootDir>/remotes/kit/');

const common = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  // The scaffold's template is not runnable as it stands (its remote's name is a placeholder): its test runs in
  // the projects tests/remote-teams/ scaffold from it.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/remotes/kit/template/', ...standaloneRemotes],
  setupFilesAfterEnv: ['<rootDir>/testing/retry-in-ci.ts'],
};

/** The unit projects: a generous time limit per test (testing/unit-test-timeout.ts says why). */
const unit = {
  ...common,
  setupFilesAfterEnv: [...common.setupFilesAfterEnv, '<rootDir>/testing/unit-test-timeout.ts'],
};

module.exports = {
  // A worker is replaced once it holds this much after a file: a leak stays bounded, and no file pays for a new worker.
  // A fresh one per file ('1KB' until issue 53) guarded against a suite's stray rejection failing the next file in its
  // worker (a PostgreSQL pool's connect timing out after its suite ended); the rejections it was for were fixed at
  // their source (a300751), and CI retries a failed test once (testing/retry-in-ci.ts). A fresh worker and jsdom per
  // file cost the host project's files about 1.5 s each: 22 of them took 62 to 74 s that way, 32 to 37 s with this.
  workerIdleMemoryLimit: '768MB',
  // A worker per core. Jest's default leaves one core to its main process, which mostly waits: on CI's two cores that
  // ran the unit suites in one worker, one file after another. The system suites too: most of their time is spent
  // waiting (for a server to start, a page to load, a webpack build), and no test may depend on the machine's speed.
  // (`npm run test:system` then runs the `containers` project one file at a time.)
  maxWorkers: '100%',
  // In a run of every project at once (`npx jest`), the container tests last, so the images .ci/run builds in the
  // background have the whole run before them (`npm run test:system` runs them last by itself).
  testSequencer: path.join(__dirname, 'testing/system/containers-last-sequencer.js'),
  projects: [
    {
      ...unit,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/shared/**/*.test.ts', '<rootDir>/server/**/*.test.ts'],
    },
    {
      ...unit,
      setupFilesAfterEnv: [
        ...unit.setupFilesAfterEnv,
        '<rootDir>/testing/host/dom-wait-timeout.ts',
        '<rootDir>/testing/host/inline-bdi.ts',
      ],
      displayName: 'host',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/host/**/*.test.{ts,tsx}', '<rootDir>/remotes/**/*.test.{ts,tsx}'],
    },
    {
      ...common,
      displayName: 'system',
      testEnvironment: 'node',
      // The deployable artifact's tests are the `containers` project below.
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '<rootDir>/tests/deploy/'],
      testMatch: [
        '<rootDir>/tests/**/*.test.ts',
        '<rootDir>/testing/**/*.test.ts',
        '<rootDir>/bench/**/*.test.ts',
        '<rootDir>/bench/**/*.test.tsx',
        '<rootDir>/scripts/**/*.test.ts',
        // The build's webpack plugins, each tested by compiling small fixture apps: slow, as the other suites here.
        '<rootDir>/build/**/*.test.ts',
      ],
    },
    {
      // The container image and the compose topology, built and run with podman: one file at a time (two would
      // build the same image tags at once), after the other system suites (`npm run test:system`), so the images
      // `.ci/run` builds in the background have the whole run before them.
      ...common,
      displayName: 'containers',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/tests/deploy/**/*.test.ts'],
    },
  ],
};
