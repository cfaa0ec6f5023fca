import { isPlainObject, type LoginRequest } from '../../shared';
import { HttpError } from '../http/http-error';
import { PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from './username';

/** Messages of a refused sign-in body; they describe the request, never the account. */
export const LOGIN_REQUEST_MESSAGES = {
  notAnObject: 'Send a JSON object: { "username": "...", "password": "..." }.',
  usernameMissing: 'Enter a username.',
  passwordMissing: 'Enter a password.',
  usernameType: 'The username must be a string.',
  passwordType: 'The password must be a string.',
  usernameTooLong: `The username is longer than ${USERNAME_MAX_LENGTH} characters.`,
  passwordTooLong: `The password is longer than ${PASSWORD_MAX_LENGTH} characters.`,
  tenantType: 'The tenant must be a tenant id (a string of at most 64 characters).',
  invalid: 'The sign-in request is not valid.',
} as const;

/** The longest tenant id there is (tenant-add.ts). */
const TENANT_ID_MAX_LENGTH = 64;

/** The sign-in body, checked: 400 `invalid_request` with per-field messages otherwise. */
export function parseLoginRequest(body: unknown): LoginRequest {
  if (!isPlainObject(body)) throw HttpError.invalidRequest(LOGIN_REQUEST_MESSAGES.notAnObject);
  const fields: Record<string, string> = {};
  const { username, password, tenant } = body;
  if (username === undefined || username === null || username === '')
    fields.username = LOGIN_REQUEST_MESSAGES.usernameMissing;
  else if (typeof username !== 'string') fields.username = LOGIN_REQUEST_MESSAGES.usernameType;
  else if (username.length > USERNAME_MAX_LENGTH) fields.username = LOGIN_REQUEST_MESSAGES.usernameTooLong;
  if (password === undefined || password === null || password === '')
    fields.password = LOGIN_REQUEST_MESSAGES.passwordMissing;
  else if (typeof password !== 'string') fields.password = LOGIN_REQUEST_MESSAGES.passwordType;
  else if (password.length > PASSWORD_MAX_LENGTH) fields.password = LOGIN_REQUEST_MESSAGES.passwordTooLong;
  if (tenant !== undefined && (typeof tenant !== 'string' || tenant.length > TENANT_ID_MAX_LENGTH)) {
    fields.tenant = LOGIN_REQUEST_MESSAGES.tenantType;
  }
  if (Object.keys(fields).length > 0) throw HttpError.invalidRequest(LOGIN_REQUEST_MESSAGES.invalid, fields);
  return {
    username: username as string,
    password: password as string,
    ...(typeof tenant === 'string' ? { tenant } : {}),
  };
}
