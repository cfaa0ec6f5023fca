/** A setting the server cannot start with; the message names the variable and what it expects. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
