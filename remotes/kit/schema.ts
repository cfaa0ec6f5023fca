/**
 * `@slots-platform/remote-kit/schema`: what a team declares its components' props with, in its `remote.ts` (which
 * runs at build time only): TypeBox's `Type`, and {@link propsSchema}. A separate entry from the kit's main one, which
 * components import in the browser: the schema library never reaches a remote's bundles, whatever they import.
 */
import { Type, type ObjectOptions, type TObject, type TProperties } from '@sinclair/typebox';

export { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * The props schema of a component: an object of the given properties, and no other (a misspelled prop in a slot is
 * then reported at registration instead of being silently ignored). `Type.Optional(...)` marks an optional prop.
 * `options.examples` (`[{ name: 'world' }]`) are the props the host emulator of `slots-remote dev` starts with.
 */
export function propsSchema<Properties extends TProperties>(
  properties: Properties,
  options: Omit<ObjectOptions, 'additionalProperties'> = {},
): TObject<Properties> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}
