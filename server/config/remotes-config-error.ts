/** The remotes configuration (REMOTES_CONFIG or a remote's build output) is unusable; raised at start-up. */
export class RemotesConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemotesConfigError';
  }
}
