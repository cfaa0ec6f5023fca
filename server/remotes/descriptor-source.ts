import type { JsonSchema, RemoteDescriptor } from '../../shared';
import type { TraceContext } from '../observability/trace-context';
import type { PendingRemote } from './remotes-config';

/**
 * Why a descriptor could not be had, as the last request for it ended: `down` (no connection: refused, reset, no such
 * host), `timed-out` (no full answer within the timeout), `bad-answer` (an answer, but no usable descriptor: an error
 * status, invalid JSON, another remote's file, a component another remote provides). An operator acts differently
 * on each, so they are never folded into one "not available".
 */
export type DescriptorFailure = 'down' | 'timed-out' | 'bad-answer';

/**
 * What a source answered for a remote declared by entry: its descriptor, props schemas and the kit that built it
 * (when its file said), or why not.
 */
export type DescriptorOutcome =
  | {
      status: 'ready';
      descriptor: RemoteDescriptor;
      props: Readonly<Record<string, JsonSchema>>;
      kit?: string;
      /**
       * The file announced rebuilds (`devEvents`): a kit's development server, whose files change at every save, so
       * never a release. Said whether or not the descriptor passes the announcement on (a production server drops it).
       */
      developmentServer?: true;
    }
  | {
      status: 'failing';
      failure: DescriptorFailure;
      reason: string;
      /** The error status the origin answered (404 …), when that is why: a publish says what a 404 asks of the team. */
      answered?: number;
    };

/**
 * Where the remote registry obtains the descriptor of a remote it knows by entry only. Reading them over HTTP from
 * the remotes' origins is one source (http-descriptor-source.ts); the registry keeps what a source answered, so
 * another source (a store of released descriptors) can stand in without the registry changing.
 */
export interface DescriptorSource {
  /**
   * The descriptor of `remote`, or why it cannot be had now; never rejects (a failure is an outcome). `trace`: the
   * request it is read for (a release being published), whose trace the request for the descriptor continues.
   */
  read(remote: PendingRemote, trace?: TraceContext): Promise<DescriptorOutcome>;
}
