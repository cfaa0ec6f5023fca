import { ComponentRegistry } from './component-registry';

/**
 * The host's global component registration (spec 2.6): the only place a slot inside a resource form is resolved.
 * Separate from the SlotComponentRegistry on purpose, so a page slot component never lands in a form by accident.
 */
export const GlobalComponentRegistry = new ComponentRegistry('GlobalComponentRegistry');
