import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { errorResponses, jsonContent, type ServerApp } from "../core/index.js";
import { type JobRunner, type JobView, jobNotFound } from "../jobs/index.js";
import { JobScenariosSchema, jobScenarios, runLogOfJob, VERIFICATION_JOB } from "../verification/index.js";

const scenariosRoute = createRoute({
  method: "get",
  path: "/api/v2/verifications/{job_id}/scenarios",
  tags: ["verification"],
  summary:
    "A scenario job's graphs (nodes, edges with their conditions, outcomes), execution records and summary by scenario",
  request: { params: z.object({ job_id: z.string().describe("The job's id (UUID)") }) },
  responses: {
    200: jsonContent(JobScenariosSchema, "The scenarios (empty lists for a job of questions)"),
    ...errorResponses(404),
  },
});

const runScenariosRoute = createRoute({
  method: "get",
  path: "/api/v2/verification-runs/{run_id}/scenarios",
  tags: ["verification"],
  summary:
    "The scenarios of a stored run made by a verification job of this server (empty lists for any other run)",
  request: { params: z.object({ run_id: z.string().describe("The stored run's id") }) },
  responses: { 200: jsonContent(JobScenariosSchema, "The scenarios of the run's job, if any") },
});

const NO_SCENARIOS = { scenarios: [], scenario_results: [], summary: [] };

async function requireJob(runner: JobRunner, id: string): Promise<JobView> {
  const view = await runner.get(id);
  if (view === null || view.kind !== VERIFICATION_JOB) throw jobNotFound(id);
  return view;
}

/** The scenarios of a verification job (spec 08 §6): what the web app's scenario panel and graph draw. */
export function mountScenarioRoutes(app: ServerApp, runner: JobRunner): void {
  app.openapi(scenariosRoute, async (c) => {
    const { job_id } = c.req.valid("param");
    await requireJob(runner, job_id);
    const dir = runner.jobDir(job_id);
    return c.json(await jobScenarios(dir, runLogOfJob(dir)), 200);
  });

  // A results view knows runs, not jobs: a verification job's run has the job's id.
  app.openapi(runScenariosRoute, async (c) => {
    const { run_id } = c.req.valid("param");
    const job = await runner.get(run_id);
    if (job === null || job.kind !== VERIFICATION_JOB || job.run_id !== run_id)
      return c.json(NO_SCENARIOS, 200);
    const dir = runner.jobDir(run_id);
    return c.json(await jobScenarios(dir, runLogOfJob(dir)), 200);
  });
}
