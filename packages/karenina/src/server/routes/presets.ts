import { stat } from "node:fs/promises";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  errorResponses,
  jsonContent,
  PageQuerySchema,
  pageOf,
  pageSchema,
  type RouteGroup,
} from "../core/index.js";
import {
  createPreset,
  deletePreset,
  findPreset,
  presetsDirectory,
  readPresets,
  type StoredPreset,
  updatePreset,
} from "../presets/index.js";

const SummarySchema = z.object({
  answering_model_count: z.number().int(),
  parsing_model_count: z.number().int(),
  total_model_count: z.number().int(),
  replicate_count: z.number().int(),
  enabled_features: z
    .array(z.string())
    .describe("Of rubric, abstention, sufficiency, deep_judgment, deep_judgment_search, few_shot"),
  interfaces: z.array(z.string()),
});

const PresetMetaSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const PresetListItemSchema = PresetMetaSchema.extend({ summary: SummarySchema }).meta({
  id: "PresetListItem",
});
export const PresetSchema = PresetMetaSchema.extend({
  config: z.record(z.string(), z.unknown()).describe("The VerificationConfig dump (secrets masked)"),
}).meta({ id: "Preset" });

const CreateSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(500).optional(),
  config: z.record(z.string(), z.unknown()).describe("A VerificationConfig"),
});
const UpdateSchema = CreateSchema.partial().refine(
  (body) => Object.keys(body).length > 0,
  "give at least one of name, description, config",
);
const IdParamsSchema = z.object({ id: z.string().min(1) });

const listRoute = createRoute({
  method: "get",
  path: "/api/v2/presets",
  tags: ["presets"],
  summary: "Verification presets by name, with summaries; unreadable files skipped with a warning",
  request: { query: PageQuerySchema },
  responses: {
    200: jsonContent(
      pageSchema(PresetListItemSchema).extend({ warnings: z.array(z.string()) }),
      "A page of presets",
    ),
    ...errorResponses(422),
  },
});
const getRoute = createRoute({
  method: "get",
  path: "/api/v2/presets/{id}",
  tags: ["presets"],
  summary: "One preset with its config",
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(PresetSchema, "The preset"), ...errorResponses(404) },
});
const createRouteDef = createRoute({
  method: "post",
  path: "/api/v2/presets",
  tags: ["presets"],
  summary: "Saves a config as a new preset",
  request: { body: { ...jsonContent(CreateSchema, "The preset"), required: true } },
  responses: { 201: jsonContent(PresetSchema, "Created"), ...errorResponses(409, 422) },
});
const updateRoute = createRoute({
  method: "put",
  path: "/api/v2/presets/{id}",
  tags: ["presets"],
  summary: "Changes a preset's name, description or config",
  request: { params: IdParamsSchema, body: { ...jsonContent(UpdateSchema, "What changes"), required: true } },
  responses: { 200: jsonContent(PresetSchema, "Updated"), ...errorResponses(404, 409, 422) },
});
const deleteRoute = createRoute({
  method: "delete",
  path: "/api/v2/presets/{id}",
  tags: ["presets"],
  summary: "Deletes a preset",
  request: { params: IdParamsSchema },
  responses: { 204: { description: "Deleted" }, ...errorResponses(404) },
});
const statusRoute = createRoute({
  method: "get",
  path: "/api/v2/presets-status",
  tags: ["presets"],
  summary: "The presets directory and how many presets it holds",
  responses: {
    200: jsonContent(
      z.object({ directory_exists: z.boolean(), directory_path: z.string(), preset_count: z.number().int() }),
      "Status",
    ),
  },
});

const withConfig = (p: StoredPreset) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  config: p.config,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/** Verification presets (spec 07 §2.2): files of the presets directory, as `karenina preset` writes them. */
export const presetRoutes: RouteGroup = (app, deps) => {
  const dir = () => presetsDirectory(deps.workDir, deps.env);

  app.openapi(listRoute, async (c) => {
    const { presets, warnings } = await readPresets(dir());
    const items = presets.map(({ config: _config, file: _file, ...item }) => item);
    return c.json({ ...pageOf(items, c.req.valid("query")), warnings }, 200);
  });
  app.openapi(getRoute, async (c) =>
    c.json(withConfig(await findPreset(dir(), c.req.valid("param").id)), 200),
  );
  app.openapi(createRouteDef, async (c) =>
    c.json(withConfig(await createPreset(dir(), c.req.valid("json"))), 201),
  );
  app.openapi(updateRoute, async (c) =>
    c.json(withConfig(await updatePreset(dir(), c.req.valid("param").id, c.req.valid("json"))), 200),
  );
  app.openapi(deleteRoute, async (c) => {
    await deletePreset(dir(), c.req.valid("param").id);
    return c.body(null, 204);
  });
  app.openapi(statusRoute, async (c) => {
    const exists = await stat(dir()).then(
      (s) => s.isDirectory(),
      () => false,
    );
    const { presets } = await readPresets(dir());
    return c.json({ directory_exists: exists, directory_path: dir(), preset_count: presets.length }, 200);
  });
};
