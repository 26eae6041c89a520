import { type FileHandle, open, rename, rm } from "node:fs/promises";
import { KareninaError } from "../../errors/index.js";
import { ResultsFileError } from "./errors.js";

/** Text is handed to the file in chunks of about this many characters. */
const CHUNK = 1 << 16;

/** Appends text to the file being written; resolves once it is buffered or written. */
export type Emit = (text: string) => Promise<void>;

/**
 * Writes a file as a stream, atomically (spec 06 §2.1): into `<path>.partial`, renamed to `path` once
 * `produce` has finished, deleted if it throws. Errors thrown by `produce` that are ours pass through
 * unchanged; file-system errors become a {@link ResultsFileError} naming `path`.
 */
export async function writeAtomicStream(path: string, produce: (emit: Emit) => Promise<void>): Promise<void> {
  const partial = `${path}.partial`;
  let handle: FileHandle | undefined;
  try {
    handle = await open(partial, "w");
    const file = handle;
    let buffer = "";
    const emit: Emit = async (text) => {
      buffer += text;
      if (buffer.length >= CHUNK) {
        const out = buffer;
        buffer = "";
        await file.write(out, null, "utf8");
      }
    };
    await produce(emit);
    if (buffer !== "") await file.write(buffer, null, "utf8");
    await file.sync();
    await file.close();
    handle = undefined;
    await rename(partial, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(partial, { force: true }).catch(() => undefined);
    if (KareninaError.isInstance(error)) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ResultsFileError(
      path,
      `cannot write the results file (${reason}); any previous file is unchanged`,
      {
        cause: error,
      },
    );
  }
}
