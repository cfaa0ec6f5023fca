/**
 * The name of the host's Module Federation instance: the build hands it to the federation plugin
 * (webpack.config.ts) and the start-up code creates the runtime instance under it (host/startup/start-host.ts).
 * The two must agree, so the name is written once, here, where both may import it.
 */
export const HOST_NAME = 'host';
