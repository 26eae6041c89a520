// Module resolution hooks (run on Node's loader thread): append each resolved module's URL to the file given
// at registration, synchronously, so the list is complete once an import has settled.
import { appendFileSync } from "node:fs";

let logFile;

export function initialize(data) {
  logFile = data.logFile;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(logFile, `${resolved.url}\n`);
  return resolved;
}
