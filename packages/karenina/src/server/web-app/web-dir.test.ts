import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { defaultWebDir } from "./web-dir.js";

/** A repository layout: packages/karenina/dist/server/web-app/web-dir.js beside packages/web. */
async function layout(built: { shipped: boolean; repository: boolean }) {
  const root = await mkdtemp(join(tmpdir(), "karenina-web-dir-"));
  const moduleDir = join(root, "packages", "karenina", "dist", "server", "web-app");
  await mkdir(moduleDir, { recursive: true });
  const shipped = join(root, "packages", "karenina", "dist", "web");
  const repository = join(root, "packages", "web", "dist");
  for (const [dir, present] of [
    [shipped, built.shipped],
    [repository, built.repository],
  ] as const) {
    if (!present) continue;
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "index.html"), "<!doctype html>");
  }
  return {
    moduleUrl: pathToFileURL(join(moduleDir, "web-dir.js")),
    shipped: `${shipped}/`,
    repository: `${repository}/`,
  };
}

describe("where the server looks for the built web app", () => {
  test("the copy shipped in the package comes first", async () => {
    const dirs = await layout({ shipped: true, repository: true });
    expect(defaultWebDir(dirs.moduleUrl)).toBe(dirs.shipped);
  });

  test("without it, the repository's packages/web/dist", async () => {
    const dirs = await layout({ shipped: false, repository: true });
    expect(defaultWebDir(dirs.moduleUrl)).toBe(dirs.repository);
  });

  test("with neither built, the repository's folder (the server then says the app is not built)", async () => {
    const dirs = await layout({ shipped: false, repository: false });
    expect(defaultWebDir(dirs.moduleUrl)).toBe(dirs.repository);
  });

  test("an installed package (no repository around it) finds its shipped copy", async () => {
    const root = await mkdtemp(join(tmpdir(), "karenina-installed-"));
    const moduleDir = join(root, "node_modules", "karenina", "dist", "server", "web-app");
    await mkdir(moduleDir, { recursive: true });
    await mkdir(join(root, "node_modules", "karenina", "dist", "web"), { recursive: true });
    await writeFile(join(root, "node_modules", "karenina", "dist", "web", "index.html"), "<!doctype html>");
    expect(defaultWebDir(pathToFileURL(join(moduleDir, "web-dir.js")))).toBe(
      join(root, "node_modules", "karenina", "dist", "web/"),
    );
  });
});
