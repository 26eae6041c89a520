import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PythonAssetError } from "./errors.js";

/**
 * Python source the library ships as a `.py` file beside the module that uses it (where Python's own tools can
 * read, lint and test it; the build copies it into `dist/`), read by the host the first time it is needed and
 * kept. Nothing is read at import, so commands that never run Python never touch the files. The sandbox
 * process never reads them either: it may read only its own modules and Pyodide's files, so the text reaches
 * it as data, with a request or at start-up.
 * A module declares its file once, `const sandboxSource = pythonAsset(new URL("./karenina_sandbox.py",
 * import.meta.url))`, and calls `sandboxSource()` where it needs the text (internal: not a public export, so
 * this is prose rather than a run example; `python-asset.test.ts` pins the behaviour).
 */
export function pythonAsset(file: URL): () => string {
  let source: string | undefined;
  return () => {
    source ??= readPythonAsset(file);
    return source;
  };
}

function readPythonAsset(file: URL): string {
  try {
    // A checkout that turned line ends into CRLF still hands Python the text the library was tested with.
    return readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  } catch (error) {
    throw new PythonAssetError(fileURLToPath(file), error);
  }
}
