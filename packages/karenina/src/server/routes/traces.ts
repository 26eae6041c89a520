import { readFile } from "node:fs/promises";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { ManualTraceError, parseManualTraces } from "../../llm/index.js";
import { ApiError, errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import { readTraceSet, UploadFormError, UploadInfoSchema, uploadStoreFor } from "../uploads/index.js";
import { MULTIPART_FILE_BODY } from "./files.js";
import { asApiErrors } from "./upload-errors.js";

const TAGS = ["manual traces"];

export const TraceSetSchema = UploadInfoSchema.extend({
  trace_count: z.number().int(),
  question_hashes: z.array(z.string()).describe("The MD5 of each question text that has a trace"),
}).meta({ id: "ManualTraceSet" });

const TraceSetParams = z.object({
  trace_set_id: z.uuid().describe("The `file_id` `POST /api/v2/traces` returned"),
});

const upload = createRoute({
  method: "post",
  path: "/api/v2/traces",
  tags: TAGS,
  summary: "Upload manual traces: a JSON file `{<md5 of question text>: trace}` (spec 05 §8.1); kept 24 h",
  description:
    "Traces are scoped to the requests that name them (a verification job's manual model carries them), never process-wide (spec 07 §2.5).",
  request: { body: MULTIPART_FILE_BODY },
  responses: { 200: jsonContent(TraceSetSchema, "Validated and stored"), ...errorResponses(400, 413, 422) },
});

const status = createRoute({
  method: "get",
  path: "/api/v2/traces/{trace_set_id}",
  tags: TAGS,
  summary: "An uploaded manual-trace set: its counts and question hashes",
  request: { params: TraceSetParams },
  responses: { 200: jsonContent(TraceSetSchema, "The trace set"), ...errorResponses(404, 422) },
});

const remove = createRoute({
  method: "delete",
  path: "/api/v2/traces/{trace_set_id}",
  tags: TAGS,
  summary: "Delete an uploaded manual-trace set",
  request: { params: TraceSetParams },
  responses: { 200: jsonContent(z.object({ message: z.string() }), "Deleted"), ...errorResponses(404, 422) },
});

function jsonExtension(filename: string): string {
  if (!/\.json$/i.test(filename)) {
    throw new UploadFormError(
      `${filename}: manual traces must be a .json file {<md5 of question text>: trace}`,
    );
  }
  return ".json";
}

/** Manual traces (spec 07 §2.2) with the §2.5 fix: stored per upload and named by the requests that use them. */
export const traceRoutes: RouteGroup = (app, deps) => {
  const store = uploadStoreFor(deps);

  const describeSet = async (id: string) => {
    const { info } = await asApiErrors(() => store.get(id, "manual_traces"));
    const traces = await asApiErrors(() => readTraceSet(store, id));
    return { ...info, trace_count: traces.size, question_hashes: traces.hashes() };
  };

  app.openapi(upload, async (c) => {
    const stored = await asApiErrors(() => store.receive(c.req.raw, "manual_traces", jsonExtension));
    try {
      parseManualTraces(await readFile(stored.path, "utf8"), stored.info.filename);
    } catch (error) {
      await store.delete(stored.info.file_id, "manual_traces");
      if (error instanceof ManualTraceError) throw new ApiError(422, "invalid_traces", error.message);
      throw error;
    }
    return c.json(await describeSet(stored.info.file_id), 200);
  });

  app.openapi(status, async (c) => c.json(await describeSet(c.req.valid("param").trace_set_id), 200));

  app.openapi(remove, async (c) => {
    const { trace_set_id } = c.req.valid("param");
    await asApiErrors(() => store.delete(trace_set_id, "manual_traces"));
    return c.json({ message: `trace set ${trace_set_id} deleted` }, 200);
  });
};
