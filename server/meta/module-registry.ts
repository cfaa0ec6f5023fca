import type { NavigationModule } from '../../shared';
import type { ResourceRegistry } from '../resources/resource-registry';
import { checkNavigationName, NavigationDefinitionError } from './navigation-definition';

/** A navigation group: a name, a label and the resources it lists, in order. */
export interface ModuleDefinition {
  name: string;
  label: string;
  /** Names of registered resources. */
  resources: readonly string[];
}

/**
 * The modules of the navigation (`modules` of GET /meta). Their JSON is the same for every user and tenant, so it is
 * built once per change of the modules or the resources.
 */
export class ModuleRegistry {
  private readonly modules: ModuleDefinition[] = [];
  private version = 0;
  private cached: { key: string; json: string } | null = null;

  constructor(private readonly resources: ResourceRegistry) {}

  register(definition: ModuleDefinition): void {
    const { name, label, resources } = definition;
    checkNavigationName('Module', name, label, this.modules);
    if (!Array.isArray(resources))
      throw new NavigationDefinitionError(`Module "${name}": resources must be a list of names.`);
    for (const resource of resources) {
      if (!this.resources.get(resource)) {
        // Which are, for a name mistyped or a resource registered after its module.
        const registered = this.resources.list().map((each) => each.name);
        throw new NavigationDefinitionError(
          `Module "${name}" lists resource "${resource}", which is not registered ` +
            `(${registered.length === 0 ? 'none is yet' : `registered: ${registered.join(', ')}`}; ` +
            'register resources before modules).',
        );
      }
    }
    this.modules.push(Object.freeze({ name, label, resources: Object.freeze([...resources]) }));
    this.version++;
  }

  list(): NavigationModule[] {
    return this.modules.map((module) => ({
      name: module.name,
      label: module.label,
      resources: module.resources.map((resourceName) => {
        const resource = this.resources.get(resourceName);
        return { name: resourceName, label: resource?.label ?? resourceName };
      }),
    }));
  }

  /** `[...]` of every module, as JSON text. */
  json(): string {
    const key = `${this.version}.${this.resources.version}`;
    if (this.cached?.key !== key) this.cached = { key, json: JSON.stringify(this.list()) };
    return this.cached.json;
  }
}
