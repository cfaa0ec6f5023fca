const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const CONTAINER_TESTS = `${path.sep}tests${path.sep}deploy${path.sep}`;

/**
 * Jest's own order (failed last time first, then the slowest, or the largest when it has no record), with the
 * container tests (tests/deploy/) at the end: they wait for the images `.ci/run` builds in the background
 * (testing/containers/images-built-ahead.ts), and every other system file run before them is time that build has to
 * finish in. The unit projects have no such files: their order is Jest's.
 */
class ContainersLastSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const containers = sorted.filter((test) => test.path.includes(CONTAINER_TESTS));
    return [...sorted.filter((test) => !test.path.includes(CONTAINER_TESTS)), ...containers];
  }
}

module.exports = ContainersLastSequencer;
