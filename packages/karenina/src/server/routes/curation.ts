import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { ApiError, errorResponses, invalidRequest, jsonContent, type RouteGroup } from "../core/index.js";
import {
  addCurationQuestion,
  checkpointDownload,
  importCheckpoint,
  loadCuration,
  type RawCurationValues,
  saveCuration,
} from "../curator/index.js";
import {
  CheckpointImportedSchema,
  CheckpointImportSchema,
  CurationChangesSchema,
  CurationSavedSchema,
  CurationSchema,
  CuratorQuestionSchema,
  NewQuestionSchema,
} from "../curator/schemas.js";
import { connectionsOf, DbQuerySchema } from "../databases/index.js";

const NameParamsSchema = z.object({ name: z.string().min(1) });

const getCuration = createRoute({
  method: "get",
  path: "/api/v2/benchmarks/{name}/curation",
  tags: ["curation"],
  summary: "A stored benchmark as the curator edits it: dataset metadata, global rubric, questions in order",
  request: { params: NameParamsSchema, query: DbQuerySchema },
  responses: { 200: jsonContent(CurationSchema, "The curation"), ...errorResponses(404, 422) },
});

const patchCuration = createRoute({
  method: "patch",
  path: "/api/v2/benchmarks/{name}/curation",
  tags: ["curation"],
  summary:
    "Incremental save: only the questions sent (and the parts present) are written, in one transaction",
  description:
    "Upserted questions are written with the library's own methods (new ids appended in the order sent, `date_modified` stamped); `delete` ignores ids the benchmark lacks (a retried autosave succeeds) and answers the ids removed; `order` must list every question once; `metadata.name` other than the stored name is a 422 `rename_not_supported`. A problem with a question is a 422 naming its id and field.",
  request: {
    params: NameParamsSchema,
    query: DbQuerySchema,
    body: { ...jsonContent(CurationChangesSchema, "The changes"), required: true },
  },
  responses: { 200: jsonContent(CurationSavedSchema, "Saved"), ...errorResponses(404, 422) },
});

const newQuestion = createRoute({
  method: "post",
  path: "/api/v2/benchmarks/{name}/curation/questions",
  tags: ["curation"],
  summary: "Adds a question (library id rules, placeholder template, unfinished), or a clone of one",
  request: {
    params: NameParamsSchema,
    query: DbQuerySchema,
    body: { ...jsonContent(NewQuestionSchema, "The question"), required: true },
  },
  responses: { 201: jsonContent(CuratorQuestionSchema, "Added"), ...errorResponses(404, 422) },
});

const downloadCheckpoint = createRoute({
  method: "get",
  path: "/api/v2/benchmarks/{name}/checkpoint",
  tags: ["curation"],
  summary: "The stored benchmark as a .jsonld checkpoint file, as the library writes it (download)",
  request: { params: NameParamsSchema, query: DbQuerySchema },
  responses: {
    200: { content: { "application/ld+json": { schema: z.string() } }, description: "The checkpoint file" },
    ...errorResponses(404, 422),
  },
});

const importRoute = createRoute({
  method: "post",
  path: "/api/v2/benchmarks/imports",
  tags: ["curation"],
  summary:
    "Stores an uploaded checkpoint file (JSON-LD or the original GUI's legacy v2.0 JSON) as a benchmark",
  request: {
    query: DbQuerySchema,
    body: { ...jsonContent(CheckpointImportSchema, "The file"), required: true },
  },
  responses: { 201: jsonContent(CheckpointImportedSchema, "Stored"), ...errorResponses(404, 409, 422) },
});

/** The values of the raw body the schema would drop (`__proto__` keys inside the user's own records). */
async function rawCurationValues(c: Context): Promise<RawCurationValues> {
  const raw = (await c.req.json()) as { upsert?: unknown; metadata?: { custom?: unknown } };
  const upsert = Array.isArray(raw.upsert) ? raw.upsert : [];
  return {
    upsert: upsert.map((question) => (typeof question === "object" && question !== null ? question : {})),
    ...(raw.metadata?.custom === undefined ? {} : { metadataCustom: raw.metadata.custom }),
  };
}

/**
 * A PATCH body that failed its schema: the default 422, with the id of each upserted question a problem is
 * about named in the message (`body.upsert.2.template_language` → `question "<id>": ...`).
 */
async function curationBodyProblem(target: string, error: z.ZodError, c: Context): Promise<ApiError> {
  if (target !== "json") return invalidRequest(target === "param" ? "path" : target, error, undefined);
  const body = (await c.req.json().catch(() => undefined)) as { upsert?: { id?: unknown }[] } | undefined;
  const api = invalidRequest("body", error, body);
  const problems = (api.details as { field: string; message: string }[]).map((problem) => {
    const index = /^body\.upsert(?:\.|\[)(\d+)/.exec(problem.field)?.[1];
    const id = index === undefined ? undefined : body?.upsert?.[Number(index)]?.id;
    return typeof id === "string" ? { ...problem, question_id: id } : problem;
  });
  const message = problems
    .map(
      (p) =>
        `${"question_id" in p ? `question ${JSON.stringify(p.question_id)}: ` : ""}${p.field}: ${p.message}`,
    )
    .join("; ");
  return new ApiError(api.status, api.code, message, problems);
}

async function curationHook(
  result: { success: true } | { success: false; target: string; error: z.ZodError },
  c: Context,
): Promise<void> {
  if (!result.success) throw await curationBodyProblem(result.target, result.error, c);
}

/** The curator's routes (spec 07 §1.3): curation load and incremental save, new questions, download, import. */
export const curationRoutes: RouteGroup = (app, deps) => {
  const connections = connectionsOf(deps);

  app.openapi(getCuration, async (c) => {
    const storage = connections.storage(c.req.valid("query").db);
    return c.json(await loadCuration(storage, c.req.valid("param").name), 200);
  });

  app.openapi(
    patchCuration,
    async (c) => {
      const storage = connections.storage(c.req.valid("query").db);
      const saved = await saveCuration(
        storage,
        c.req.valid("param").name,
        c.req.valid("json"),
        await rawCurationValues(c),
      );
      return c.json(saved, 200);
    },
    // Hono's hook type wants a typed response; this one only throws (the app's error handler answers).
    curationHook as never,
  );

  app.openapi(newQuestion, async (c) => {
    const storage = connections.storage(c.req.valid("query").db);
    return c.json(await addCurationQuestion(storage, c.req.valid("param").name, c.req.valid("json")), 201);
  });

  app.openapi(downloadCheckpoint, async (c) => {
    const storage = connections.storage(c.req.valid("query").db);
    const file = await checkpointDownload(storage, c.req.valid("param").name);
    // The route declares `application/ld+json`, which the typed router takes for c.json's; the text is sent as
    // the library wrote it, byte for byte.
    return c.body(file.text, 200, {
      "content-type": "application/ld+json; charset=utf-8",
      "content-disposition": `attachment; filename="${file.fileName}"`,
    }) as never;
  });

  app.openapi(importRoute, async (c) => {
    const storage = connections.storage(c.req.valid("query").db);
    return c.json(await importCheckpoint(storage, c.req.valid("json")), 201);
  });
};
