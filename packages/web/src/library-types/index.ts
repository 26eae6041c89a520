/**
 * The library's shapes the screens read and send, imported as types only: the web app never redefines a shape
 * and never bundles library code (a type import is erased at build). The server's request and response types
 * are the library's `server/api-types` (inferred from the route schemas). `karenina` resolves to the library's
 * generated declarations (tsconfig `paths`), so the app typechecks before the library is built.
 */
export type * from "karenina";
