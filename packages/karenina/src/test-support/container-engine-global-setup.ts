/**
 * Vitest global setup (see vitest.config.ts): once per test run, starts a throwaway Podman engine with the
 * test image and provides its socket and image, or, when that is not possible, the reason (see
 * container-engine.ts for how test files use it). At teardown the engine is stopped and its directory deleted.
 */
import type { TestProject } from "vitest/node";
import type { ProvidedContainerEngine } from "./container-engine.js";
import { startPodmanEngine } from "./podman-engine.js";

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const provide = (value: ProvidedContainerEngine) => project.provide("kareninaContainerEngine", value);
  try {
    const engine = await startPodmanEngine();
    provide({ socketPath: engine.socketPath, image: engine.image, reason: null });
    return () => engine.stop();
  } catch (error) {
    provide({ socketPath: null, image: null, reason: (error as Error).message });
    return undefined;
  }
}
