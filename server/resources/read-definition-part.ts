import { ResourceDefinitionError } from './resource-definition-error';

/**
 * Calls one method of a resource's definition (`fields()`, `relations()`, ...) for registration, so that whatever it
 * throws names the resource. `Field.number('amount', { maxLength: 10 })` inside `fields()` throws a message naming
 * the field only (a field does not know its resource); among several resources the developer was left to guess
 * which one. A `ResourceDefinitionError` gets the resource and method before its own words; any other error (a bug
 * of the definition's own code) is wrapped as one, its original kept as `cause` for its stack.
 */
export function readDefinitionPart<T>(resource: string, method: string, read: () => T): T {
  try {
    return read();
  } catch (error: unknown) {
    const prefix = `Resource "${resource}"`;
    if (error instanceof ResourceDefinitionError) {
      if (error.message.startsWith(prefix)) throw error;
      throw new ResourceDefinitionError(`${prefix}, in ${method}: ${error.message}`, { cause: error });
    }
    const said = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new ResourceDefinitionError(`${prefix}: its ${method} threw ${said}`, { cause: error });
  }
}
