/** Longest accepted username; longer ones are refused before any lookup. */
export const USERNAME_MAX_LENGTH = 64;
/** Longest accepted password (hashing cost grows with it); 1024 leaves room for any passphrase or manager. */
export const PASSWORD_MAX_LENGTH = 1024;
/** Shortest password the user:add command accepts. */
export const PASSWORD_MIN_LENGTH = 12;
/** Usernames the user:add command creates: letters, digits and `. _ @ -`. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
