/**
 * Every message the host's start-up, loader and core show or log, in one place, so tests and tools assert on the
 * same text the code uses. Plain strings without React: the start-up code logs some of them before React loads.
 */
export const HOST_MESSAGES = {
  slotDataProviderMissing:
    'useSlotData() was called outside <SlotSourceProvider>. Wrap the page (or the test) in <SlotSourceProvider ' +
    'source={...}> so every AppSlotRenderer on it shares one GET /meta or GET /slots request instead of fetching ' +
    'per location.',
  sessionProviderMissing:
    'useSession() was called outside <SlotSourceProvider>. Wrap the app (or the test) in <SlotSourceProvider ' +
    'source={...}> so pages and slots agree on who is signed in.',
  apiClientProviderMissing:
    'useApiClient() was called outside <ApiClientProvider>. Wrap the app (or the test) in <ApiClientProvider ' +
    'client={createApiClient()}> so every request goes through one client.',
  slotFailureLog: '[slots] A slot could not be rendered; the rest of the page is unaffected.',
  remoteFailureLog:
    '[slots] A remote could not be loaded; its components render their fallback until the page reloads.',
  slotDataFailureLog: '[slots] Slot data could not be loaded; the page renders without slots.',
  remoteListFailureLog:
    '[slots] The remotes catalogue (GET /api/remotes) could not be loaded; no remote component is available.',
  unknownComponent: (component: string) =>
    `No component named "${component}" is registered in the SlotComponentRegistry (is its remote listed at GET /api/remotes?).`,
  notAFormComponent: (component: string) =>
    `"${component}" is registered in the SlotComponentRegistry only. Form slots resolve through the ` +
    `GlobalComponentRegistry: declare it in the remote's formComponents (or register it globally).`,
  unknownFormComponent: (component: string) =>
    `No component named "${component}" is registered in the GlobalComponentRegistry, which form slots resolve through.`,
  invalidProps: (component: string, problem: string) =>
    `The slot's props do not match the props schema of "${component}": ${problem}`,
  slotTimedOut: (component: string, ms: number) =>
    `"${component}" timed out: it was still loading after ${ms / 1000} s (a module that never arrived, or a ` +
    'component that suspends on something that never settles), and is given up until the page reloads.',
  remoteQuarantined: (remote: string) =>
    `Remote "${remote}" failed earlier on this page and is not requested again until the page reloads.`,
  invalidModule: (id: string, found: string) =>
    `Federated module "${id}" has no React component to render: expected a default export or a named export ` +
    `"${id.split('/').pop() ?? ''}" that is a component, found ${found}.`,
} as const;
