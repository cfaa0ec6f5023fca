/** A `registerSlots` call that cannot be honoured; thrown at once so a bad registration stops the start. */
export class SlotRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlotRegistrationError';
  }
}
