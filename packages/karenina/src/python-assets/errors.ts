import { KareninaError } from "../errors/index.js";

/**
 * A Python file the library ships beside its modules (the sandbox's lockdown, the template layer) could not be
 * read: the installation is incomplete, or a clone's `dist/` was built without them.
 */
export class PythonAssetError extends KareninaError {
  override readonly name = "PythonAssetError";

  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const reason = (cause as NodeJS.ErrnoException | undefined)?.code ?? String(cause);
    super(
      `karenina's Python file ${file} could not be read (${reason}): the installation is incomplete; reinstall karenina, or in a clone run \`npm run build\` again`,
      { cause },
    );
  }
}
