import { readdir, readFile, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { questionIdFromText } from "../../model/index.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { uploadsRoot } from "../uploads/index.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const CSV = "Question,Answer,Tags\nWhat is 2+2?,4,math; easy\n,5,\nCapital of France?,Paris,geo\n";

async function uploadText(name: string, content: string | Buffer): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([content]), name);
  return fetch(`${server.url}/api/v2/files`, { method: "POST", body: form });
}

async function uploaded(name = "questions.csv", content: string | Buffer = CSV): Promise<string> {
  const res = await uploadText(name, content);
  expect(res.status).toBe(200);
  return ((await res.json()) as { file_id: string }).file_id;
}

describe("POST /api/v2/files", () => {
  test("streams the file to disk and answers its id, name and size", async () => {
    const res = await uploadText("questions.csv", CSV);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      success: true,
      kind: "spreadsheet",
      filename: "questions.csv",
      size: CSV.length,
    });
    const stored = join(uploadsRoot(server.deps.workDir), String(body.file_id), "data.csv");
    expect(await readFile(stored, "utf8")).toBe(CSV);
  });

  test("a file over 50 MB is refused with 413 and nothing of it is kept", async () => {
    const before = await readdir(uploadsRoot(server.deps.workDir));
    const res = await uploadText("big.csv", Buffer.alloc(50 * 1024 * 1024 + 1, "a"));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect(await readdir(uploadsRoot(server.deps.workDir))).toEqual(before);
  });

  test("a file of exactly 50 MB is accepted", async () => {
    const res = await uploadText("edge.csv", Buffer.alloc(50 * 1024 * 1024, "a"));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { size: number }).size).toBe(50 * 1024 * 1024);
  });

  test("an unsupported kind of file is refused before it is stored", async () => {
    const res = await uploadText("notes.xls", "x");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "bad_request",
        message:
          "notes.xls: the old Excel .xls format is not supported; open the file in a spreadsheet program and save it as .xlsx",
      },
    });
  });

  test("a body that is not a multipart form is a 400 naming the field", async () => {
    const res = await fetch(`${server.url}/api/v2/files`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "bad_request",
        message: "expected a multipart/form-data body with the file in field 'file'",
      },
    });
  });

  test("a form without the file field is a 400", async () => {
    const form = new FormData();
    form.append("other", "x");
    const res = await fetch(`${server.url}/api/v2/files`, { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "bad_request", message: "the form has no file in field 'file'" },
    });
  });

  test("a client file name with path parts never becomes a path", async () => {
    const id = await uploaded("../../../escape.csv");
    const folder = join(uploadsRoot(server.deps.workDir), id);
    expect((await readdir(folder)).sort()).toEqual(["data.csv", "meta.json"]);
    expect(await readdir(server.deps.workDir)).not.toContain("escape.csv");
  });

  test("a body cut short mid-file is a 400 and leaves no file", async () => {
    const before = await readdir(uploadsRoot(server.deps.workDir));
    const url = new URL(`${server.url}/api/v2/files`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=XyZ" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nQuestion,Answer\n',
      );
    });
    expect(status).toBe(400);
    expect(await readdir(uploadsRoot(server.deps.workDir))).toEqual(before);
  });
});

describe("preview and extraction of an upload", () => {
  test("GET …/preview shows the columns and first rows as text", async () => {
    const id = await uploaded();
    const res = await fetch(`${server.url}/api/v2/files/${id}/preview`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      file_id: id,
      filename: "questions.csv",
      total_rows: 3,
      columns: ["Question", "Answer", "Tags"],
      preview_rows: 3,
      data: [
        { Question: "What is 2+2?", Answer: "4", Tags: "math; easy" },
        { Question: "", Answer: "5", Tags: "" },
        { Question: "Capital of France?", Answer: "Paris", Tags: "geo" },
      ],
      sheet: null,
      sheets: null,
    });
  });

  test("an .xlsx upload lists its sheets, previews the one named, and says which sheets exist for an unknown one", async () => {
    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("First").addRows([
      ["Question", "Answer"],
      ["Q1?", "A1"],
    ]);
    workbook.addWorksheet("Second").addRows([
      ["Q", "A"],
      ["Q2?", "A2"],
      ["Q3?", "A3"],
    ]);
    const id = await uploaded("book.xlsx", Buffer.from(await workbook.xlsx.writeBuffer()));
    const first = await fetch(`${server.url}/api/v2/files/${id}/preview`);
    expect(await first.json()).toMatchObject({ sheet: "First", sheets: ["First", "Second"], total_rows: 1 });
    const second = await fetch(`${server.url}/api/v2/files/${id}/preview?sheet_name=Second`);
    expect(await second.json()).toMatchObject({ sheet: "Second", columns: ["Q", "A"], total_rows: 2 });
    const unknown = await fetch(`${server.url}/api/v2/files/${id}/preview?sheet_name=Third`);
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toEqual({
      error: {
        code: "unreadable_file",
        message: 'book.xlsx: no sheet named "Third" (sheets: "First", "Second")',
      },
    });
  });

  test("POST …/questions extracts with a mapping, dropping empty rows", async () => {
    const id = await uploaded();
    const res = await fetch(`${server.url}/api/v2/files/${id}/questions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        questionColumn: "Question",
        answerColumn: "Answer",
        keywordsColumns: [{ column: "Tags", separator: ";" }],
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      questions_count: number;
      questions: { id: string; question: string; keywords: string[] }[];
      dropped_rows: number[];
    };
    expect(body.questions_count).toBe(2);
    expect(body.dropped_rows).toEqual([3]);
    expect(body.questions.map((q) => [q.id, q.question, q.keywords])).toEqual([
      [questionIdFromText("What is 2+2?"), "What is 2+2?", ["easy", "math"]],
      [questionIdFromText("Capital of France?"), "Capital of France?", ["geo"]],
    ]);
  });

  test("a missing column is a 422 naming the file by its uploaded name, not the server path", async () => {
    const id = await uploaded();
    const res = await fetch(`${server.url}/api/v2/files/${id}/questions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ questionColumn: "Qestion", answerColumn: "Answer" }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: {
        code: "unreadable_file",
        message:
          'questions.csv: missing required column "Qestion" (question; did you mean "Question"?); the file has columns "Question", "Answer", "Tags"',
      },
    });
  });

  test("a mapping that fails its schema is a 422 naming the field", async () => {
    const id = await uploaded();
    const res = await fetch(`${server.url}/api/v2/files/${id}/questions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ questionColumn: 3, answerColumn: "Answer" }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toMatch(/^body\.questionColumn: /);
  });

  test("a file that cannot be read as its kind is a 422 on preview", async () => {
    const id = await uploaded("broken.xlsx", "this is not a zip");
    const res = await fetch(`${server.url}/api/v2/files/${id}/preview`);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unreadable_file");
    expect(body.error.message).toMatch(/^broken\.xlsx: not readable as an \.xlsx workbook/);
  });

  test("unknown and malformed ids are 404 and 422", async () => {
    const unknown = await fetch(`${server.url}/api/v2/files/00000000-0000-4000-8000-000000000000/preview`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found");
    const malformed = await fetch(`${server.url}/api/v2/files/..%2F..%2Fetc/preview`);
    expect(malformed.status).toBe(422);
  });

  test("DELETE removes the upload; a second delete is 404", async () => {
    const id = await uploaded();
    const first = await fetch(`${server.url}/api/v2/files/${id}`, { method: "DELETE" });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ message: `file ${id} deleted` });
    expect(await readdir(uploadsRoot(server.deps.workDir))).not.toContain(id);
    const second = await fetch(`${server.url}/api/v2/files/${id}`, { method: "DELETE" });
    expect(second.status).toBe(404);
  });

  test("an upload past its time to live answers 404 and is deleted", async () => {
    const id = await uploaded();
    const meta = join(uploadsRoot(server.deps.workDir), id, "meta.json");
    const info = JSON.parse(await readFile(meta, "utf8")) as Record<string, unknown>;
    await writeFile(meta, JSON.stringify({ ...info, expires_at: new Date(Date.now() - 1000).toISOString() }));
    const res = await fetch(`${server.url}/api/v2/files/${id}/preview`);
    expect(res.status).toBe(404);
    expect(await readdir(uploadsRoot(server.deps.workDir))).not.toContain(id);
  });
});
