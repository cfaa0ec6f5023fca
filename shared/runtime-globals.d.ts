/**
 * The globals shared/ uses beyond ECMAScript. shared/ runs in browsers and in Node, so it compiles with neither the
 * DOM nor the Node types; what it needs from the runtime is declared here, and only what both provide alike.
 */

/** The WHATWG encoder: a global in every browser and in Node since version 11. */
interface TextEncoder {
  /** The UTF-8 bytes of `input`. */
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
