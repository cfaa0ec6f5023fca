/**
 * The Node flags the server runs with, however it is launched: `npm start` and `npm run serve` (package.json), the
 * image's `CMD` (Dockerfile), the supervisor commands of the operators' guides, and the bench, which measures the
 * server as it ships. server-node-flags.test.ts checks that package.json and the Dockerfile carry every one.
 *
 * `--max-semi-space-size=32`: V8's young generation, where new objects live until a scavenge, at 32 MiB a half
 * instead of the 16 Node 20 gives it here. With tracing on, each recorded span and its attributes wait in the export
 * batch for tens of milliseconds: long enough, at 16 MiB and thousands of spans a second, to be copied twice and
 * promoted to the old generation (`--trace-gc`: four times the scavenge time with every request traced). At 32 MiB
 * they mostly die young. In three bench runs (bench/results/example-2026-11-26-notes.md), every request traced went
 * from 0.36 to 0.44 of the untraced throughput to 0.45 to 0.53 in JSON and 0.52 to 0.57 in protobuf, one in ten from
 * 0.59 to 0.77 to 0.73 to 0.78 in JSON (0.73 to 0.83 in protobuf); the untraced server and its resident memory under load did not change. 64 MiB gained
 * nothing more and held 50 MiB more. Decision record 0018 says why the flag ships rather than being left to operators.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--enable-source-maps', '--max-semi-space-size=32'];
