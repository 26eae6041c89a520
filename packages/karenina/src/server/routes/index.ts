import type { RouteGroup } from "../core/index.js";
import { benchmarkRoutes } from "./benchmarks.js";
import { configRoutes } from "./config.js";
import { curationRoutes } from "./curation.js";
import { databaseRoutes } from "./databases.js";
import { fileRoutes } from "./files.js";
import { healthRoutes } from "./health.js";
import { interfaceRoutes } from "./interfaces.js";
import { mcpRoutes } from "./mcp.js";
import { modelComparisonRoutes } from "./model-comparison.js";
import { presetRoutes } from "./presets.js";
import { questionRoutes } from "./questions.js";
import { regexRoutes } from "./regex.js";
import { resultsExplorerRoutes } from "./results-explorer.js";
import { rubricRoutes } from "./rubrics.js";
import { runImportRoutes } from "./run-imports.js";
import { storedRunRoutes } from "./stored-runs.js";
import { templateBuilderRoutes } from "./template-builder.js";
import { templateGenerationRoutes } from "./template-generation.js";
import { traceRoutes } from "./traces.js";
import { verificationRoutes } from "./verifications.js";

/**
 * Every route group, each mounted once (spec 07 §2.5: the original mounted some routers twice). Add a group
 * here, nowhere else; `openapi.test.ts` checks that every route appears once in the OpenAPI document.
 */
export const ROUTE_GROUPS: readonly RouteGroup[] = [
  healthRoutes,
  databaseRoutes,
  benchmarkRoutes,
  curationRoutes,
  storedRunRoutes,
  resultsExplorerRoutes,
  runImportRoutes,
  mcpRoutes,
  presetRoutes,
  fileRoutes,
  questionRoutes,
  traceRoutes,
  templateBuilderRoutes,
  rubricRoutes,
  regexRoutes,
  templateGenerationRoutes,
  verificationRoutes,
  modelComparisonRoutes,
  configRoutes,
  interfaceRoutes,
];
