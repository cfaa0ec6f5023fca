/**
 * The remote kit, for teams shipping slot components: the contract shared with the host and the server (locations,
 * slot and form-slot props, wire types, error codes), {@link defineRemote}, the declaration of a remote's
 * components with their props schemas, and TypeBox's `Type` to write those schemas. Browser-safe: a remote's components import from here. The build side is `./webpack` (the webpack
 * preset) and the `slots-remote` command (`./cli`).
 */
export * from '../../shared';
export {
  defineRemote,
  findDescriptorProblems,
  InvalidRemoteDescriptorError,
  propsSchema,
  type PropsOf,
  type RemoteDeclaration,
  type RemoteDefinition,
} from './define-remote';
// The schema library a team declares its components' props with (in remote.ts, which runs at build time only).
export { Type, type Static, type TSchema } from '@sinclair/typebox';
