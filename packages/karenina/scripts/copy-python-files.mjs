// Copies the Python files the library ships (src/**/*.py, test fixtures excepted) and its assets (src/**/assets/*.md, *.mjs) beside their compiled modules
// in dist/, where the modules read them at run time (`new URL("./x.py", import.meta.url)`). Run by `npm run build`
// after tsc, which copies only what it compiles.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const [from = join(packageDir, "src"), to = join(packageDir, "dist")] = process.argv.slice(2);

const shipped = readdirSync(from, { recursive: true, encoding: "utf8" }).filter(
  (file) =>
    // Assets (the analyst prompt of analyze-errors, the deep agent's model relay...) live in `assets/` folders
    // beside their module.
    (file.endsWith(".py") ||
      ((file.endsWith(".md") || file.endsWith(".mjs")) && file.split(sep).includes("assets"))) &&
    !file.split(sep).some((part) => part === "__fixtures__" || part === "test-support"),
);
for (const file of shipped) {
  mkdirSync(dirname(join(to, file)), { recursive: true });
  copyFileSync(join(from, file), join(to, file));
}
