/**
 * A container engine for tests. Once per test run, the Vitest global setup (container-engine-global-setup.ts)
 * starts a throwaway Podman engine answering the Docker Engine API on a unix socket (see podman-engine.ts:
 * its own storage and configuration in a temporary directory, runc, cgroupfs) with a small imported image
 * (busybox in /bin; the host's node at /usr/bin/node with its libraries), and provides its socket and image.
 * Point `CONTAINER_HOST` (runtime "podman") or `DOCKER_HOST` (runtime "docker") at `unix://${socketPath}`.
 * Without Podman the tests are skipped with the reason, unless `KARENINA_REQUIRE_CONTAINER_ENGINE` is set (as
 * CI does where podman installs): then the test files fail.
 */
import { inject } from "vitest";

/** What the global setup provides: the engine's socket and image, or why there is none. */
export type ProvidedContainerEngine =
  | { readonly socketPath: string; readonly image: string; readonly reason: null }
  | { readonly socketPath: null; readonly image: null; readonly reason: string };

declare module "vitest" {
  export interface ProvidedContext {
    kareninaContainerEngine: ProvidedContainerEngine;
  }
}

/**
 * The test run's container engine (a Podman API socket and an image with busybox and node), or the reason
 * the container-engine tests are skipped.
 * @throws when `KARENINA_REQUIRE_CONTAINER_ENGINE` is set and there is no engine: the file fails instead.
 */
export function containerEngineForTests():
  | { socketPath: string; image: string; skipReason: null }
  | { socketPath: null; image: null; skipReason: string } {
  const provided = inject("kareninaContainerEngine");
  if (provided?.socketPath)
    return { socketPath: provided.socketPath, image: provided.image, skipReason: null };
  const reason = provided?.reason ?? "the container-engine global setup did not run (see vitest.config.ts)";
  if (process.env.KARENINA_REQUIRE_CONTAINER_ENGINE) {
    throw new Error(
      `KARENINA_REQUIRE_CONTAINER_ENGINE is set but no container engine is available: ${reason}`,
    );
  }
  console.warn(`container engine tests skipped: ${reason}`);
  return { socketPath: null, image: null, skipReason: reason };
}
