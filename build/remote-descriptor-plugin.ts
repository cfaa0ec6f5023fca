import type { Compiler } from 'webpack';
import { REMOTE_DESCRIPTOR_FILE, type RemoteDescriptorFile } from '../shared';

/**
 * Writes `slots-remote.json` beside the remote's `mf-manifest.json`, from the same declaration (the remote's `remote.ts`)
 * that produced the build's `exposes`. The server lists the remote from this file, so what is served always matches
 * what was built. `kit`: the remote kit's version, kept by each release made of the build.
 */
export class RemoteDescriptorPlugin {
  constructor(private readonly descriptor: RemoteDescriptorFile) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap(RemoteDescriptorPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: RemoteDescriptorPlugin.name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const descriptor: RemoteDescriptorFile = {
            name: this.descriptor.name,
            components: [...this.descriptor.components],
            formComponents: [...this.descriptor.formComponents],
            // Each component's props schema, as JSON Schema: what the server checks slot props against.
            ...(this.descriptor.props === undefined ? {} : { props: this.descriptor.props }),
            ...(this.descriptor.devEvents === undefined ? {} : { devEvents: this.descriptor.devEvents }),
            ...(this.descriptor.kit === undefined ? {} : { kit: this.descriptor.kit }),
          };
          compilation.emitAsset(
            REMOTE_DESCRIPTOR_FILE,
            new webpack.sources.RawSource(`${JSON.stringify(descriptor, null, 2)}\n`),
          );
        },
      );
    });
  }
}
