/**
 * The remote kit, for teams shipping slot components: the contract shared with the host and the server (locations,
 * slot and form-slot props, wire types, error codes), the API client the host uses too ({@link createApiClient}),
 * {@link defineRemote}, the declaration of a remote's components
 * with their props schemas, and {@link PropsOf}, a component's props type inferred from its schema. Browser-safe: a
 * remote's components import from here. The schemas are written with `./schema` (TypeBox's `Type`, `propsSchema`);
 * the build side is `./webpack` (the webpack preset) and the `slots-remote` command (`./cli`: build, dev with the host
 * emulator, new, release); the slot tests of Jest are `./testing` (`renderSlot`).
 */
export * from '../../shared';
export {
  defineRemote,
  findDescriptorProblems,
  InvalidRemoteDescriptorError,
  type PropsOf,
  type DefineRemoteInput,
  type RemoteDeclaration,
  type RemoteDefinition,
} from './define-remote';
