import { ComponentRegistry } from './component-registry';

/**
 * The registry slots are resolved through: the name in a slot's `component` field must be registered here under
 * the same name. The host fills it at start-up with a lazy component for every component of every remote.
 */
export const SlotComponentRegistry = new ComponentRegistry('SlotComponentRegistry');

/**
 * The host's global component registration, which holds the form components: the only registry a slot inside a
 * resource form is resolved through. Separate from the SlotComponentRegistry on purpose, so a page slot component
 * never lands in a form by accident; a remote declares which of its components are form components.
 */
export const GlobalComponentRegistry = new ComponentRegistry('GlobalComponentRegistry');
