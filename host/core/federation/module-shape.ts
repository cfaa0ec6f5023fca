import { isReactComponent, type SlotComponent } from '../component-registry';
import { CORE_MESSAGES } from '../../loader/messages';
import { SlotLoadError } from '../slot-load-error';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value);
  return keys.length === 0
    ? 'a module with no exports'
    : `a module exporting ${keys.map((key) => `"${key}"`).join(', ')}`;
}

/**
 * The React component a federated module provides for `component`: its named export of that name, else its
 * default export. Anything else throws a SlotLoadError naming the module (`<remote>/<component>`).
 */
export function componentFromModule(module: unknown, id: string, component: string): SlotComponent {
  if (module !== null && typeof module === 'object') {
    const exports = module as Record<string, unknown>;
    const named = exports[component];
    if (isReactComponent(named)) return named as SlotComponent;
    const fallback = exports.default;
    if (isReactComponent(fallback)) return fallback as SlotComponent;
  }
  throw new SlotLoadError(CORE_MESSAGES.invalidModule(id, describe(module)));
}
