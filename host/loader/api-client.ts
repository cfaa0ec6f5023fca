/**
 * The host's API client is the product's one JSON client (shared/api-client.ts), which remote components get from
 * the remote kit: the same requests, session cookie and errors on both sides. The host's code and tests import it
 * from here, beside the rest of its start-up code.
 */
export {
  ApiError,
  createApiClient,
  type ApiClient,
  type FetchLike,
  type ResponseLike,
  type RequestInitLike,
} from '../../shared';
