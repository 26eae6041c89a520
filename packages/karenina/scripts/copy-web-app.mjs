// Copies the built web app (packages/web/dist) into dist/web, where `karenina serve` finds it in the installed
// package (src/server/web-app/web-dir.ts). Run by `npm run build` after tsc; the root build builds packages/web
// first. When the web app is not built, says so and goes on: the server then answers a page saying the web
// app is not built, and .ci/check-install fails a package packed without it.
import { cpSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../../web/dist", import.meta.url));
const to = fileURLToPath(new URL("../dist/web", import.meta.url));

if (existsSync(`${from}/index.html`)) {
  cpSync(from, to, { recursive: true });
} else {
  console.warn(
    `copy-web-app: no built web app at ${from} (npm run build -w packages/web); dist/web not made`,
  );
}
