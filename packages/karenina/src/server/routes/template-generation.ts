import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { ModelConfigSchema } from "../../pipeline/index.js";
import { JOB_STATUSES } from "../../storage/index.js";
import { errorResponses, jsonContent, PageQuerySchema, pageSchema, type RouteGroup } from "../core/index.js";
import { JobProgressSchema, type JobRunner, type JobView, jobNotFound, jobRunnerOf } from "../jobs/index.js";
import { mountProgressStreams } from "../progress/index.js";
import {
  GENERATION_JOB,
  type GenerationJobInput,
  GenerationQuestionSchema,
  GenerationResultSchema,
  generationJobKind,
  prepareGenerationJob,
} from "../template-generation/index.js";

const TAGS = ["template generation"];
const BASE = "/api/v2/templates/generation";

export const StartGenerationSchema = z
  .object({
    questions: z.array(GenerationQuestionSchema).min(1, "must hold at least one question"),
    config: ModelConfigSchema.describe("The generator model (spec 04 §2 ModelConfig)"),
    force_regenerate: z.boolean().default(false).describe("Also regenerate questions that have a template"),
    concurrency: z.number().int().min(1).max(32).default(1).describe("Questions generated at once"),
  })
  .meta({ id: "StartTemplateGeneration" });

export const GenerationStartedSchema = z.object({
  success: z.literal(true),
  job_id: z.string(),
  status: z.enum(JOB_STATUSES),
  message: z.string(),
});

export const GenerationJobViewSchema = JobProgressSchema.extend({
  created_at: z.string(),
  finished_at: z.string().nullable(),
  outcome: GenerationResultSchema.nullable().describe("The templates, once the job has ended"),
  last_seq: z.number().int(),
}).meta({ id: "TemplateGenerationJob" });

const JobIdParams = z.object({ job_id: z.string().describe("The job's id (UUID)") });
const ListQuery = PageQuerySchema.extend({ status: z.enum(JOB_STATUSES).optional() });

const start = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Start generating answer templates for questions (a job that survives a restart)",
  request: {
    body: { ...jsonContent(StartGenerationSchema, "Questions and generator model"), required: true },
  },
  responses: { 202: jsonContent(GenerationStartedSchema, "Queued"), ...errorResponses(422) },
});

const list = createRoute({
  method: "get",
  path: BASE,
  tags: TAGS,
  summary: "Generation jobs, newest first",
  request: { query: ListQuery },
  responses: {
    200: jsonContent(pageSchema(GenerationJobViewSchema), "A page of jobs"),
    ...errorResponses(422),
  },
});

const progress = createRoute({
  method: "get",
  path: `${BASE}/{job_id}/progress`,
  tags: TAGS,
  summary: "A generation job's progress, and its templates once it has ended",
  request: { params: JobIdParams },
  responses: { 200: jsonContent(GenerationJobViewSchema, "The job"), ...errorResponses(404) },
});

const cancel = createRoute({
  method: "delete",
  path: `${BASE}/{job_id}`,
  tags: TAGS,
  summary: "Cancel a generation job: calls in flight are aborted, finished templates kept; ends `cancelled`",
  request: { params: JobIdParams },
  responses: { 200: jsonContent(GenerationJobViewSchema, "The cancelled job"), ...errorResponses(404, 409) },
});

const resume = createRoute({
  method: "post",
  path: `${BASE}/{job_id}/resume`,
  tags: TAGS,
  summary: "Resume an interrupted generation job: finished templates are restored, the rest generated",
  request: { params: JobIdParams },
  responses: { 202: jsonContent(GenerationJobViewSchema, "Queued again"), ...errorResponses(404, 409) },
});

async function requireJob(runner: JobRunner, id: string): Promise<JobView> {
  const view = await runner.get(id);
  if (view === null || view.kind !== GENERATION_JOB) throw jobNotFound(id);
  return view;
}

/** A job view without the row fields generation does not use. */
function generationView(view: JobView) {
  const { run_id: _, ...rest } = view;
  return { ...rest, outcome: (rest.outcome ?? null) as z.infer<typeof GenerationResultSchema> | null };
}

/**
 * Template generation jobs (spec 07 §1.2, §2.2–2.4) on the server's job runner: persisted, resumable after a
 * restart (each success is backed up as it finishes), cancelled through an AbortSignal (final state
 * `cancelled`, not `completed`), `job_completed` sent once with the result; progress over WebSocket and SSE.
 */
export const templateGenerationRoutes: RouteGroup = (app, deps, hooks) => {
  const runner = jobRunnerOf(deps, hooks);
  runner.register(generationJobKind(deps.env));

  app.openapi(start, async (c) => {
    const body = c.req.valid("json");
    const raw = (await c.req.json()) as { config: unknown };
    const input: GenerationJobInput = {
      questions: body.questions,
      force_regenerate: body.force_regenerate,
      concurrency: body.concurrency,
      model: {
        model_name: body.config.model_name,
        interface: body.config.interface,
        model_provider: body.config.model_provider,
      },
    };
    const id = crypto.randomUUID();
    await prepareGenerationJob(runner.jobDir(id), raw.config);
    const job = await runner.start(GENERATION_JOB, input, { id });
    const message = `template generation queued for ${body.questions.length} question(s)`;
    return c.json({ success: true as const, job_id: job.job_id, status: job.status, message }, 202);
  });

  app.openapi(list, async (c) => {
    const query = c.req.valid("query");
    const { items, total } = await runner.list({ kind: GENERATION_JOB, ...query });
    return c.json(
      { items: items.map(generationView), page: query.page, page_size: query.page_size, total },
      200,
    );
  });

  app.openapi(progress, async (c) =>
    c.json(generationView(await requireJob(runner, c.req.valid("param").job_id)), 200),
  );

  app.openapi(cancel, async (c) => {
    const id = c.req.valid("param").job_id;
    await requireJob(runner, id);
    return c.json(generationView(await runner.cancel(id)), 200);
  });

  app.openapi(resume, async (c) => {
    const id = c.req.valid("param").job_id;
    await requireJob(runner, id);
    return c.json(generationView(await runner.resume(id)), 202);
  });

  mountProgressStreams(app, hooks, runner, {
    wsPath: "/ws/generation-progress/:job_id",
    ssePath: `${BASE}/:job_id/events`,
  });
};
