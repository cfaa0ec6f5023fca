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
  // A fresh worker for every test file: a suite that leaves a connection attempt or timer behind (a PostgreSQL pool's
  // connect timing out after its suite ended was seen in CI) cannot fail whichever test runs next in that worker.
  // It costs the worker's start per file, about a second on two cores.
  workerIdleMemoryLimit: '1KB',
  projects: [
    {
      ...unit,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/shared/**/*.test.ts', '<rootDir>/server/**/*.test.ts'],
    },
    {
      ...unit,
      setupFilesAfterEnv: [...unit.setupFilesAfterEnv, '<rootDir>/testing/host/dom-wait-timeout.ts'],
      displayName: 'host',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/host/**/*.test.{ts,tsx}', '<rootDir>/remotes/**/*.test.{ts,tsx}'],
    },
    {
      ...common,
      displayName: 'system',
      testEnvironment: 'node',
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
  ],
};
