/**
 * A database or Redis address as messages and logs may say it: its password replaced with `***`. `unreadable`: what
 * to say of one that is no URL (it may hold a password where no parser finds it).
 */
export function hidePassword(address: string, unreadable: string): string {
  try {
    const url = new URL(address);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return unreadable;
  }
}
