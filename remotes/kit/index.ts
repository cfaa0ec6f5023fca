/**
 * The remote kit, for teams shipping slot components: the contract shared with the host and the server (locations,
 * slot and form-slot props, wire types, error codes) and {@link defineRemote}, the declaration of a remote's
 * components. Browser-safe: a remote's components import from here. The build side is `./webpack` (the webpack
 * preset) and the `slots-remote` command (`./cli`).
 */
export * from '../../shared';
export {
  defineRemote,
  findDescriptorProblems,
  InvalidRemoteDescriptorError,
  type RemoteDeclaration,
} from './define-remote';
