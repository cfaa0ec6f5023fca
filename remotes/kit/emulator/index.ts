/**
 * The host emulator's entry (`slots-remote dev` serves it at `/`, built into the kit's package when it is packed):
 * the Module Federation runtime sets up the shared React first, as in the product's host; then the page starts.
 */
void import('./emulator-app').then(({ startEmulator }) => startEmulator(document.getElementById('emulator')!));
