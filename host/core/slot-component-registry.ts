import { ComponentRegistry } from './component-registry';

/**
 * The registry slots are resolved through (spec 2.7): the name in a slot's `component` field must be registered
 * here. The host fills it at start-up with a lazy loader per component of every remote.
 */
export const SlotComponentRegistry = new ComponentRegistry('SlotComponentRegistry');
