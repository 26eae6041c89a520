// Removes dist/ before a build: tsc never deletes the output of sources that were moved or removed, and
// `npm pack` ships whatever dist/ holds (a stale test fixture there failed the install check).
import { rmSync } from "node:fs";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
