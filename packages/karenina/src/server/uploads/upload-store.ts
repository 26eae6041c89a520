import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { z } from "zod";
import { UploadNotFoundError } from "./errors.js";
import { receiveMultipartFile } from "./multipart-file.js";

/** What an upload is for; each route group reads only its own kind. */
export type UploadKind = "spreadsheet" | "manual_traces";

/** The index entry of an upload, kept beside its file (`meta.json`), so uploads survive a restart. */
export const UploadInfoSchema = z
  .object({
    file_id: z.uuid(),
    kind: z.enum(["spreadsheet", "manual_traces"]),
    filename: z.string().describe("The name the client sent; never used as a path"),
    size: z.number().int().describe("Bytes"),
    uploaded_at: z.string().describe("ISO time"),
    expires_at: z.string().describe("ISO time after which the upload is deleted"),
  })
  .meta({ id: "UploadInfo" });
export type UploadInfo = z.infer<typeof UploadInfoSchema>;

const StoredMetaSchema = UploadInfoSchema.extend({ stored_as: z.string().regex(/^data(\.[a-z]+)?$/) });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** An upload and the path of its file on disk. */
export interface StoredUpload {
  info: UploadInfo;
  path: string;
}

/** Options of {@link UploadStore}. */
export interface UploadStoreOptions {
  /** Largest file accepted, in bytes (default 50 MB). */
  maxBytes?: number;
  /** How long an upload is kept (default 24 h). */
  ttlMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

export const DEFAULT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
const META = "meta.json";
const PURGE_EVERY_MS = 60 * 1000;

/**
 * Uploaded files on disk under `root`, one folder per upload id (`<id>/data<ext>` + `meta.json`): streamed
 * in with a size cap, indexed on disk (so a restart keeps them), deleted after their time to live (spec 07
 * §2.5). The client's file name never becomes a path: the file is stored as `data` plus an extension the
 * caller chose from its own list.
 */
export class UploadStore {
  readonly maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #lastPurge = Number.NEGATIVE_INFINITY;

  constructor(
    readonly root: string,
    options: UploadStoreOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
    this.#ttlMs = options.ttlMs ?? DEFAULT_UPLOAD_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Streams the `file` field of a multipart request to disk. `extensionFor` maps the client's file name to the
   * stored extension (`.csv`), or throws to refuse the file before anything is written.
   * @throws {UploadTooLargeError} beyond {@link maxBytes} (nothing kept).
   * @throws {UploadFormError} for a request that is not such a form.
   */
  async receive(
    request: Request,
    kind: UploadKind,
    extensionFor: (filename: string) => string,
  ): Promise<StoredUpload> {
    await this.purgeExpired();
    const id = randomUUID();
    const folder = join(this.root, id);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    let path = "";
    try {
      const file = await receiveMultipartFile(request, {
        field: "file",
        maxBytes: this.maxBytes,
        destination: (filename) => {
          path = join(folder, `data${extensionFor(filename)}`);
          return path;
        },
      });
      const now = this.#now();
      const info: UploadInfo = {
        file_id: id,
        kind,
        filename: file.filename,
        size: file.size,
        uploaded_at: new Date(now).toISOString(),
        expires_at: new Date(now + this.#ttlMs).toISOString(),
      };
      await writeFile(join(folder, META), JSON.stringify({ ...info, stored_as: basename(path) }), {
        mode: 0o600,
      });
      return { info, path };
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * The upload `id` of `kind`.
   * @throws {UploadNotFoundError} when there is none (or it expired, which deletes it).
   */
  async get(id: string, kind: UploadKind): Promise<StoredUpload> {
    await this.purgeExpired();
    const stored = await this.#read(id);
    if (stored === null || stored.info.kind !== kind) throw new UploadNotFoundError(id);
    if (Date.parse(stored.info.expires_at) <= this.#now()) {
      await this.#remove(id);
      throw new UploadNotFoundError(id);
    }
    return stored;
  }

  /**
   * Deletes the upload `id` of `kind`.
   * @throws {UploadNotFoundError} when there is none.
   */
  async delete(id: string, kind: UploadKind): Promise<void> {
    await this.get(id, kind);
    await this.#remove(id);
  }

  /** Deletes expired uploads (and leftovers of interrupted ones); runs at most once a minute unless forced. */
  async purgeExpired(force = false): Promise<number> {
    const now = this.#now();
    if (!force && now - this.#lastPurge < PURGE_EVERY_MS) return 0;
    this.#lastPurge = now;
    const ids = await readdir(this.root).catch(() => [] as string[]);
    let removed = 0;
    for (const id of ids) {
      const stored = await this.#read(id);
      if (stored === null || Date.parse(stored.info.expires_at) <= now) {
        await this.#remove(id);
        removed++;
      }
    }
    return removed;
  }

  async #read(id: string): Promise<StoredUpload | null> {
    if (!z.uuid().safeParse(id).success) return null;
    const text = await readFile(join(this.root, id, META), "utf8").catch(() => null);
    if (text === null) return null;
    const parsed = StoredMetaSchema.safeParse(parseJson(text));
    if (!parsed.success) return null;
    const { stored_as, ...info } = parsed.data;
    return { info, path: join(this.root, id, stored_as) };
  }

  async #remove(id: string): Promise<void> {
    if (!z.uuid().safeParse(id).success) return;
    await rm(join(this.root, id), { recursive: true, force: true });
  }
}

/** The folder of a server's uploads inside its working directory. */
export function uploadsRoot(workDir: string): string {
  return join(workDir, ".karenina", "uploads");
}

const stores = new WeakMap<object, UploadStore>();

/** The upload store of a server (one per `deps`, shared by its route groups), under its working directory. */
export function uploadStoreFor(deps: { readonly workDir: string }): UploadStore {
  let store = stores.get(deps);
  if (store === undefined) {
    store = new UploadStore(uploadsRoot(deps.workDir));
    stores.set(deps, store);
  }
  return store;
}
