/** A resource, field or relation defined wrongly; thrown when it is defined or registered, never at request time. */
export class ResourceDefinitionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ResourceDefinitionError';
  }
}
