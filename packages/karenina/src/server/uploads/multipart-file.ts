import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Busboy, type BusboyFileStream } from "@fastify/busboy";
import { KareninaError } from "../../errors/index.js";
import { UploadFormError, UploadTooLargeError } from "./errors.js";

/** What {@link receiveMultipartFile} wrote. */
export interface ReceivedFile {
  /** The file name the client sent, without its directory parts (never used as a path). */
  filename: string;
  size: number;
}

/** Options of {@link receiveMultipartFile}. */
export interface ReceiveOptions {
  /** The form field holding the file. */
  field: string;
  /** The most file bytes accepted; one more aborts the upload with {@link UploadTooLargeError}. */
  maxBytes: number;
  /**
   * Where to write the file, given the client's file name; throw (e.g. {@link UploadFormError}) to refuse it
   * before a byte is written.
   */
  destination: (filename: string) => string;
}

/**
 * Bounds on what is not the file: every other part is held in memory by the parser (up to `fieldSize`), so
 * their size and number are capped and going past a cap refuses the form rather than reading on.
 */
const FORM_LIMITS = {
  headerSize: 16 * 1024,
  headerPairs: 32,
  fieldSize: 64 * 1024,
  fields: 16,
  parts: 32,
  files: 1,
};

/**
 * Streams the file field of a `multipart/form-data` request to disk as it arrives (parsed by busboy), never
 * holding the file in memory, and stops reading at `maxBytes + 1` file bytes. On any failure the partial file
 * is removed.
 * @throws {UploadTooLargeError} beyond `maxBytes`.
 * @throws {UploadFormError} when the request is not such a form, has no `field` file, or is cut short.
 */
export async function receiveMultipartFile(request: Request, options: ReceiveOptions): Promise<ReceivedFile> {
  const parser = formParser(request, options);
  const body = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  const abort = new AbortController();
  const upload: { file: SavingFile | null; failure: unknown } = { file: null, failure: null };
  const fail = (error: unknown) => {
    upload.failure ??= error;
    abort.abort(error);
  };

  parser.on("file", (_field, stream, filename) => {
    try {
      upload.file = saveFile(stream, filename, options.destination(filename), fail);
    } catch (error) {
      fail(error);
      return;
    }
    stream.on("limit", () => fail(new UploadTooLargeError(options.maxBytes)));
  });
  parser.on("field", (name: string, _value: string, _nameCut: boolean, valueCut: boolean) => {
    if (valueCut) fail(new UploadFormError(`form field '${name}' is over ${FORM_LIMITS.fieldSize} bytes`));
  });
  for (const event of ["partsLimit", "fieldsLimit", "filesLimit"] as const) {
    parser.on(event, () =>
      fail(
        new UploadFormError(
          `the form has more parts than an upload needs; send only the file in field '${options.field}'`,
        ),
      ),
    );
  }

  try {
    await pipeline(body, parser, { signal: abort.signal });
    if (upload.file === null) throw new UploadFormError(`the form has no file in field '${options.field}'`);
    return await upload.file.saved;
  } catch (error) {
    await upload.file?.discard();
    throw asUploadError(upload.failure ?? error);
  }
}

/** A file part being written to disk. */
interface SavingFile {
  /** Settles once every byte is on disk. */
  saved: Promise<ReceivedFile>;
  /** Stops writing and removes what was written. */
  discard(): Promise<void>;
}

/** Pipes the file part to a new 0600 file at `path`; a failure (a write, or the part cut short) goes to `fail`. */
function saveFile(
  stream: BusboyFileStream,
  filename: string,
  path: string,
  fail: (error: unknown) => void,
): SavingFile {
  const out = createWriteStream(path, { flags: "wx", mode: 0o600 });
  const saved = pipeline(stream, out).then(() => ({ filename, size: stream.bytesRead }));
  saved.catch(fail);
  return {
    saved,
    async discard() {
      // Both ends: the pipeline leaves a write stream with a pending write open when its source is destroyed.
      stream.destroy();
      out.destroy();
      await saved.catch(() => undefined);
      await rm(path, { force: true });
    },
  };
}

/** The busboy parser of the request's form, limited to one file in `options.field` (other parts are fields). */
function formParser(request: Request, options: ReceiveOptions) {
  const notAForm = () =>
    new UploadFormError(`expected a multipart/form-data body with the file in field '${options.field}'`);
  const contentType = request.headers.get("content-type");
  if (contentType === null || request.body === null || !/^multipart\/form-data\s*;/i.test(contentType)) {
    throw notAForm();
  }
  try {
    return Busboy({
      headers: { "content-type": contentType },
      limits: { ...FORM_LIMITS, fileSize: options.maxBytes },
      isPartAFile: (name, _type, filename) => name === options.field && filename !== undefined,
    });
  } catch {
    throw notAForm(); // no boundary
  }
}

/**
 * The parser's and the request stream's errors (e.g. a body cut short) as a bad form; ours and the file
 * system's (a failed write: the server's fault, not the client's) as they are.
 */
function asUploadError(error: unknown): unknown {
  if (KareninaError.isInstance(error) || (error instanceof Error && "syscall" in error)) return error;
  return new UploadFormError(
    "the multipart body ended before its closing boundary or is malformed; send the whole form again",
  );
}
