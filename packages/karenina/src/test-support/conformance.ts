import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The original's test fixtures, in `../shared/conformance/` beside the project (see its README). */
export const CONFORMANCE_DIR = fileURLToPath(new URL("../../../../../shared/conformance/", import.meta.url));

export const hasConformance = existsSync(CONFORMANCE_DIR);

/** Path of a conformance file, e.g. `conformancePath("checkpoints/minimal.jsonld")`. */
export function conformancePath(relative: string): string {
  return `${CONFORMANCE_DIR}${relative}`;
}

export const SKIP_REASON = `conformance data not found at ${CONFORMANCE_DIR} (expected ../shared beside the project)`;
