import { createApiClient } from '../kit';

/**
 * The client of the API calls team_records' components make themselves: the product's own (from the remote kit).
 * Relative URLs resolve against the host page, so they reach the host's server (and its session cookie) wherever
 * this remote's files are served from.
 */
export const apiClient = createApiClient();
