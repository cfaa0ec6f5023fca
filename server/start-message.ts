/** An account the start message tells the operator about (the demo's `admin`). */
export interface SignInAccount {
  username: string;
  /** True when this start created the account. */
  created: boolean;
  /** The password, only when this start created the account. */
  password?: string;
  /** True when the password was generated (not given). */
  passwordGenerated: boolean;
}

export interface StartMessageInput {
  url: string;
  account: SignInAccount | undefined;
  /** Put in front of the reset command when the database is not the default one. */
  databasePathForCommand: string | undefined;
}

/** What the server prints once it listens: where to open it and how to sign in. */
export function formatStartMessage(input: StartMessageInput): string {
  const command = (username: string) =>
    `${input.databasePathForCommand ? `DATABASE_PATH=${input.databasePathForCommand} ` : ''}npm run user:add -- ${username}`;
  const lines = [`Slots platform is ready: open ${input.url}`];
  const account = input.account;
  if (!account) {
    lines.push(`Add a staff account with: ${command('<username>')}`);
  } else if (account.created && account.password !== undefined && account.passwordGenerated) {
    lines.push(
      `Sign in as "${account.username}" with the password: ${account.password}`,
      `This password is printed only now. To change it later: ${command(account.username)}`,
    );
  } else if (account.created) {
    lines.push(`Sign in as "${account.username}" with the password set in DEMO_PASSWORD.`);
  } else {
    lines.push(
      `Sign in as "${account.username}" with the password printed when the server first started on this database.`,
      `Forgot it? Reset it with: ${command(account.username)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
