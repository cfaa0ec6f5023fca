import { ModuleFederation, setGlobalFederationConstructor } from '@module-federation/runtime-core';
import { readFederationDebugSwitch } from './federation-env';

/**
 * What the runtime did at start with the sdk's own environment module, done once the page has rendered
 * (federation-env.ts): with the devtools' `FEDERATION_DEBUG` switch on in localStorage, publish the runtime's
 * constructor for them (`__FEDERATION__.__DEBUG_CONSTRUCTOR__`), and let the runtime's warnings carry stack traces.
 * Every instance is made with the same constructor either way: this only tells the devtools which one it is.
 */
export function applyFederationDebugSwitch(): void {
  if (readFederationDebugSwitch()) setGlobalFederationConstructor(ModuleFederation, true);
}
