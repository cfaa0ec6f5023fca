import { OPERATOR_ROLE } from '../../shared';

/**
 * Whether the signed-in user may see and change releases. Apart from the releases page, so that the navigation can
 * ask without loading that page's chunk.
 */
export function isOperator(roles: readonly string[] | undefined): boolean {
  return roles?.includes(OPERATOR_ROLE) ?? false;
}
