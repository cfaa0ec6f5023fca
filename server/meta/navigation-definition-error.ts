/** A module or dashboard defined wrongly; thrown when it is registered. */
export class NavigationDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NavigationDefinitionError';
  }
}
