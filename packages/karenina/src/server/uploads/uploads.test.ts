import { mkdtemp, readdir, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { UploadFormError, UploadNotFoundError, UploadTooLargeError } from "./errors.js";
import { receiveMultipartFile } from "./multipart-file.js";
import { UploadStore } from "./upload-store.js";

const BOUNDARY = "----b0undary";
const body = (content: string, extra = "") =>
  `${extra}--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="q.csv"\r\nContent-Type: text/csv\r\n\r\n` +
  `${content}\r\n--${BOUNDARY}--\r\n`;

/** A request whose body arrives in chunks of `size` bytes, so boundaries fall across chunks. */
function chunkedRequest(text: string, size: number): Request {
  const bytes = Buffer.from(text);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.subarray(at, at + size));
      controller.close();
    },
  });
  return new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

describe("receiveMultipartFile", () => {
  test("writes exactly the file's bytes whatever the chunking (boundaries split across chunks)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "multipart-"));
    const content = `Question,Answer\r\n--not-a-boundary\r\n\r\n${"é".repeat(100)}`;
    for (const size of [1, 2, 3, 7, 13, 64, 4096]) {
      const path = join(dir, `out-${size}`);
      const file = await receiveMultipartFile(chunkedRequest(body(content, "preamble\r\n"), size), {
        field: "file",
        maxBytes: 1000,
        destination: () => path,
      });
      expect(file).toEqual({ filename: "q.csv", size: Buffer.byteLength(content) });
      expect(await readFile(path, "utf8")).toBe(content);
    }
  });

  test("stops at maxBytes + 1 and removes the partial file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "multipart-"));
    const path = join(dir, "out");
    await expect(
      receiveMultipartFile(chunkedRequest(body("x".repeat(101)), 16), {
        field: "file",
        maxBytes: 100,
        destination: () => path,
      }),
    ).rejects.toThrow(UploadTooLargeError);
    expect(await readdir(dir)).toEqual([]);
  });

  test("a refused file name writes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "multipart-"));
    await expect(
      receiveMultipartFile(chunkedRequest(body("x"), 16), {
        field: "file",
        maxBytes: 100,
        destination: () => {
          throw new UploadFormError("no");
        },
      }),
    ).rejects.toThrow("no");
    expect(await readdir(dir)).toEqual([]);
  });

  test("a body cut short mid-file is a form error and removes the partial file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "multipart-"));
    const cut = body("x".repeat(50)).slice(0, -30);
    await expect(
      receiveMultipartFile(chunkedRequest(cut, 16), {
        field: "file",
        maxBytes: 100,
        destination: () => join(dir, "out"),
      }),
    ).rejects.toThrow(
      new UploadFormError(
        "the multipart body ended before its closing boundary or is malformed; send the whole form again",
      ),
    );
    expect(await readdir(dir)).toEqual([]);
  });

  test("another field over 64 KB, or more parts than an upload needs, refuses the form", async () => {
    const dir = await mkdtemp(join(tmpdir(), "multipart-"));
    const options = { field: "file", maxBytes: 100, destination: () => join(dir, "out") };
    const field = (name: string, value: string) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    await expect(
      receiveMultipartFile(chunkedRequest(body("x", field("big", "y".repeat(64 * 1024 + 1))), 4096), options),
    ).rejects.toThrow("form field 'big' is over 65536 bytes");
    const many = Array.from({ length: 40 }, (_, n) => field(`f${n}`, "v")).join("");
    await expect(receiveMultipartFile(chunkedRequest(body("x", many), 4096), options)).rejects.toThrow(
      "the form has more parts than an upload needs; send only the file in field 'file'",
    );
    expect(await readdir(dir)).toEqual([]);
  });

  test("the client's directory parts are dropped from the file name it is known by", async () => {
    const dir = await mkdtemp(join(tmpdir(), "multipart-"));
    const text = body("a").replace('filename="q.csv"', 'filename="../../etc/q.csv"');
    const file = await receiveMultipartFile(chunkedRequest(text, 64), {
      field: "file",
      maxBytes: 100,
      destination: (filename) => join(dir, `named-${filename.length}`),
    });
    expect(file).toEqual({ filename: "q.csv", size: 1 });
  });
});

describe("UploadStore", () => {
  test("an upload is a 0600 file in a 0700 folder", async () => {
    const root = await mkdtemp(join(tmpdir(), "uploads-"));
    const stored = await new UploadStore(root).receive(
      chunkedRequest(body("a,b"), 64),
      "spreadsheet",
      () => ".csv",
    );
    expect((await stat(stored.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(root, stored.info.file_id))).mode & 0o777).toBe(0o700);
  });

  test("expired uploads are purged from disk and then unknown", async () => {
    const root = await mkdtemp(join(tmpdir(), "uploads-"));
    let now = Date.parse("2026-01-01T00:00:00Z");
    const store = new UploadStore(root, { ttlMs: 1000, now: () => now });
    const kept = await store.receive(chunkedRequest(body("a,b"), 64), "spreadsheet", () => ".csv");
    expect(await store.get(kept.info.file_id, "spreadsheet")).toEqual(kept);
    expect(kept.info.expires_at).toBe("2026-01-01T00:00:01.000Z");
    now += 1000;
    expect(await store.purgeExpired(true)).toBe(1);
    expect(await readdir(root)).toEqual([]);
    await expect(store.get(kept.info.file_id, "spreadsheet")).rejects.toThrow(UploadNotFoundError);
  });

  test("an id that is not a UUID never reaches the file system", async () => {
    const root = await mkdtemp(join(tmpdir(), "uploads-"));
    const store = new UploadStore(root);
    await expect(store.get("../../etc", "spreadsheet")).rejects.toThrow(UploadNotFoundError);
    await expect(store.delete("..", "spreadsheet")).rejects.toThrow(UploadNotFoundError);
  });
});
