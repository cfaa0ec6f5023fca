import { componentFromModule, SlotComponentRegistry, type RegistrableComponent } from '../../host/core';
import { startBaselineShell } from '../baseline-shell/start-baseline-shell';

/**
 * The benchmark's baseline host: the product's own shell, with the remote components imported into the same bundle
 * and registered directly, no Module Federation runtime, no /api/remotes, no remote entry (startBaselineShell starts
 * the page's session and slot requests before rendering, as the product's start-up code does).
 * `modules` maps a component name to its module, as the generated entry imports them; `remotes` names the remote
 * each comes from, so the page reports its slot loads (slot events) as the federated page does: the same work after
 * the page is rendered, whichever way its components arrived.
 */
export function startBundledHost(
  modules: Readonly<Record<string, unknown>>,
  remotes: Readonly<Record<string, string>>,
): void {
  startBaselineShell(() => {
    const components: Record<string, RegistrableComponent> = {};
    for (const [name, module] of Object.entries(modules)) {
      components[name] = componentFromModule(module, `bundled/${name}`, name);
    }
    SlotComponentRegistry.registerMany(components);
    return { remoteOf: (component) => remotes[component] ?? null };
  });
}
