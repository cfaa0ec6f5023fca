/**
 * The Node flags the server runs with, however it is launched: `npm start` and `npm run serve` (package.json), the
 * image's `CMD` (Dockerfile), the supervisor commands of the operators' guides, and the bench, which measures the
 * server as it ships. server-node-flags.test.ts checks that package.json and the Dockerfile carry every one.
 *
 * `--max-semi-space-size=32`: V8's young generation, where new objects live until a scavenge, at 32 MiB a half
 * instead of Node 20's 16. With tracing on, each recorded span and its attributes wait in the export batch for tens
 * of milliseconds: long enough, at 16 MiB and thousands of spans a second, to be copied twice and promoted to the old
 * generation, whose collections then cost a traced `GET /slots` about a third of its throughput. At 32 MiB they
 * mostly die young. Measured (docs/operators/performance.md): every request traced 0.37 to 0.46 → 0.50 to 0.56 of
 * the untraced throughput, one in ten 0.69 to 0.79 → 0.86 to 0.89 (protobuf), the untraced server unchanged, and no
 * more resident memory under load (64 MiB gained no throughput and held 50 MiB more).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--enable-source-maps', '--max-semi-space-size=32'];
