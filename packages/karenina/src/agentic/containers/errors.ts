import { KareninaError } from "../../errors/index.js";

/**
 * The container backend a model asks for cannot run here (its program is missing, the kernel refuses its
 * namespaces, or this build has no such backend). The task fails with this message; commands never fall back
 * to the host.
 */
export class ContainerBackendUnavailableError extends KareninaError {
  override readonly name = "ContainerBackendUnavailableError";

  constructor(
    readonly backend: string,
    reason: string,
  ) {
    super(`container backend ${backend} is unavailable: ${reason}`);
  }
}
