import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../loader/api-client';
import { HOST_MESSAGES } from '../loader/messages';

const ApiClientContext = createContext<ApiClient | null>(null);

export function ApiClientProvider({ client, children }: { client: ApiClient; children?: ReactNode }) {
  return <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>;
}

export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error(HOST_MESSAGES.apiClientProviderMissing);
  return client;
}
