import { extname } from "node:path";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  extractQuestionsFromFile,
  previewSpreadsheet,
  SpreadsheetMappingSchema,
  spreadsheetFormat,
} from "../../authoring/index.js";
import { KareninaError } from "../../errors/index.js";
import { QuestionSchema } from "../../model/index.js";
import { ApiError, errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import { UploadFormError, UploadInfoSchema, uploadStoreFor } from "../uploads/index.js";
import { asApiErrors } from "./upload-errors.js";

const TAGS = ["files"];

/** The multipart body of an upload (documented only: the route streams it to disk itself). */
export const MULTIPART_FILE_BODY = {
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        properties: { file: { type: "string" as const, format: "binary" } },
        required: ["file"],
      },
    },
  },
  description: "The file, in form field `file` (50 MB at most)",
  required: true,
};

const FileIdParams = z.object({ file_id: z.uuid().describe("The id `POST /api/v2/files` returned") });

export const UploadedSchema = UploadInfoSchema.extend({ success: z.literal(true) }).meta({
  id: "UploadedFile",
});

const PreviewQuery = z.object({
  sheet_name: z.string().optional().describe("The .xlsx sheet to show (default: the first)"),
});

export const PreviewSchema = UploadInfoSchema.extend({
  total_rows: z.number().int(),
  columns: z.array(z.string()),
  preview_rows: z.number().int(),
  data: z.array(z.record(z.string(), z.string())).describe("The first 100 rows, every cell as text"),
  sheet: z.string().nullable().describe("The .xlsx sheet shown; null for CSV and TSV"),
  sheets: z.array(z.string()).nullable().describe("Every sheet of the workbook; null for CSV and TSV"),
}).meta({ id: "SpreadsheetPreview" });

export const ExtractionSchema = z
  .object({
    success: z.literal(true),
    questions_count: z.number().int(),
    questions: z
      .array(QuestionSchema.extend({ id: z.string() }))
      .describe("In file order; `id` = MD5 of the text"),
    dropped_rows: z
      .array(z.number().int())
      .describe("Rows left out because their question or answer is empty"),
    warnings: z.array(z.string()),
    sheet: z.string().nullable(),
    total_rows: z.number().int(),
  })
  .meta({ id: "QuestionExtraction" });

const DeletedSchema = z.object({ message: z.string() });

const upload = createRoute({
  method: "post",
  path: "/api/v2/files",
  tags: TAGS,
  summary: "Upload a spreadsheet (.xlsx, .csv, .tsv, .txt), streamed to disk; kept 24 h",
  request: { body: MULTIPART_FILE_BODY },
  responses: { 200: jsonContent(UploadedSchema, "Stored"), ...errorResponses(400, 413) },
});

const preview = createRoute({
  method: "get",
  path: "/api/v2/files/{file_id}/preview",
  tags: TAGS,
  summary: "The columns and first 100 rows of an uploaded spreadsheet",
  request: { params: FileIdParams, query: PreviewQuery },
  responses: { 200: jsonContent(PreviewSchema, "The preview"), ...errorResponses(404, 422) },
});

const extract = createRoute({
  method: "post",
  path: "/api/v2/files/{file_id}/questions",
  tags: TAGS,
  summary: "Extract questions from an uploaded spreadsheet with a column mapping (spec 06 §8)",
  request: {
    params: FileIdParams,
    body: { ...jsonContent(SpreadsheetMappingSchema, "Which columns hold what"), required: true },
  },
  responses: { 200: jsonContent(ExtractionSchema, "The questions"), ...errorResponses(404, 422) },
});

const remove = createRoute({
  method: "delete",
  path: "/api/v2/files/{file_id}",
  tags: TAGS,
  summary: "Delete an uploaded file",
  request: { params: FileIdParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses(404) },
});

/** The stored extension of a spreadsheet, refusing every other kind before a byte is written. */
function spreadsheetExtension(filename: string): string {
  try {
    spreadsheetFormat(filename);
  } catch (error) {
    throw new UploadFormError((error as Error).message);
  }
  return extname(filename).toLowerCase();
}

/** A file the library could not read: the request was fine, its content is not (422, naming the file). */
const unreadable = (message: string) => new ApiError(422, "unreadable_file", message);

/**
 * Spreadsheet upload → preview → question extraction (spec 07 §1.1, §2.2), with the §2.5 fixes: the upload is
 * streamed to disk with a 50 MB cap (413 beyond), indexed on disk with a 24 h time to live, and every failure is
 * an error status in the one envelope (never 200 with `success: false`).
 */
export const fileRoutes: RouteGroup = (app, deps) => {
  const store = uploadStoreFor(deps);

  app.openapi(upload, async (c) => {
    const { info } = await asApiErrors(() => store.receive(c.req.raw, "spreadsheet", spreadsheetExtension));
    return c.json({ success: true as const, ...info }, 200);
  });

  app.openapi(preview, async (c) => {
    const { file_id } = c.req.valid("param");
    const { sheet_name } = c.req.valid("query");
    const stored = await asApiErrors(() => store.get(file_id, "spreadsheet"));
    const shown = await previewSpreadsheet(
      stored.path,
      sheet_name === undefined ? {} : { sheet: sheet_name },
    );
    if (!shown.success) throw unreadable(shown.error.replace(stored.path, stored.info.filename));
    const { success: _, ...table } = shown;
    return c.json({ ...stored.info, ...table }, 200);
  });

  app.openapi(extract, async (c) => {
    const { file_id } = c.req.valid("param");
    const stored = await asApiErrors(() => store.get(file_id, "spreadsheet"));
    const rename = (text: string) => text.replaceAll(stored.path, stored.info.filename);
    const extraction = await extractQuestionsFromFile(stored.path, c.req.valid("json")).catch((error) => {
      throw KareninaError.isInstance(error) ? unreadable(rename(error.message)) : error;
    });
    return c.json(
      {
        success: true as const,
        questions_count: extraction.questions.length,
        questions: extraction.questions.map((question) => question.toJSON()),
        dropped_rows: extraction.dropped_rows,
        warnings: extraction.warnings.map(rename),
        sheet: extraction.sheet,
        total_rows: extraction.total_rows,
      },
      200,
    );
  });

  app.openapi(remove, async (c) => {
    const { file_id } = c.req.valid("param");
    await asApiErrors(() => store.delete(file_id, "spreadsheet"));
    return c.json({ message: `file ${file_id} deleted` }, 200);
  });
};
