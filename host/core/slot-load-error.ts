/** A slot's component could not be obtained (bad federated module), as opposed to failing while rendering. */
export class SlotLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotLoadError';
  }
}
