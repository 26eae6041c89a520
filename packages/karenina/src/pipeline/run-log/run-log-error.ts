import { KareninaError } from "../../errors/index.js";

/** The run log could not be opened, read or appended to. */
export class RunLogError extends KareninaError {
  override readonly name: string = "RunLogError";

  constructor(
    readonly path: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${reason}`, options);
  }
}

/** The errno code of a file-system error, or its message. */
export function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
