import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { ApiError, errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import {
  deleteMcpPreset,
  listMcpServerTools,
  McpPresetSchema,
  mcpPresetStem,
  mcpPresetsDirectory,
  readMcpPresets,
  saveMcpPreset,
} from "../presets/index.js";

const NameParamsSchema = z.object({ name: z.string().min(1).max(100) });

export const McpServerToolsSchema = z.object({
  tools: z.array(z.object({ name: z.string(), description: z.string() })),
});

const listRoute = createRoute({
  method: "get",
  path: "/api/v2/mcp/presets",
  tags: ["mcp"],
  summary: "Saved MCP servers by name; unreadable files skipped with a warning",
  responses: {
    200: jsonContent(
      z.object({ presets: z.record(z.string(), McpPresetSchema), warnings: z.array(z.string()) }),
      "The presets",
    ),
  },
});
const putRoute = createRoute({
  method: "put",
  path: "/api/v2/mcp/presets/{name}",
  tags: ["mcp"],
  summary:
    "Saves (or replaces) an MCP server preset; its file name is the name lower-cased, non-alphanumerics as _",
  request: {
    params: NameParamsSchema,
    body: { ...jsonContent(McpPresetSchema, "The preset"), required: true },
  },
  responses: {
    200: jsonContent(z.object({ preset: McpPresetSchema }), "Saved"),
    ...errorResponses(400, 422),
  },
});
const deleteRoute = createRoute({
  method: "delete",
  path: "/api/v2/mcp/presets/{name}",
  tags: ["mcp"],
  summary: "Deletes an MCP server preset",
  request: { params: NameParamsSchema },
  responses: { 204: { description: "Deleted" }, ...errorResponses(404, 422) },
});
const validateRoute = createRoute({
  method: "post",
  path: "/api/v2/mcp/servers/validation",
  tags: ["mcp"],
  summary: "Connects to an MCP server over streamable HTTP and lists its tools",
  request: {
    body: {
      ...jsonContent(
        z.object({ server_name: z.string().min(1).max(100), server_url: McpPresetSchema.shape.url }),
        "The server",
      ),
      required: true,
    },
  },
  responses: {
    200: jsonContent(McpServerToolsSchema, "The server's tools"),
    ...errorResponses(422, 502),
  },
});

/** MCP server presets and server validation (spec 07 §2.2). */
export const mcpRoutes: RouteGroup = (app, deps) => {
  const dir = () => mcpPresetsDirectory(deps.workDir, deps.env);

  app.openapi(listRoute, async (c) => c.json(await readMcpPresets(dir()), 200));
  app.openapi(putRoute, async (c) => {
    const { name } = c.req.valid("param");
    const preset = c.req.valid("json");
    if (mcpPresetStem(preset.name) !== mcpPresetStem(name)) {
      throw ApiError.badRequest(
        `body.name ${JSON.stringify(preset.name)} does not match the path's preset name ${JSON.stringify(name)}`,
      );
    }
    await saveMcpPreset(dir(), preset);
    return c.json({ preset }, 200);
  });
  app.openapi(deleteRoute, async (c) => {
    await deleteMcpPreset(dir(), c.req.valid("param").name);
    return c.body(null, 204);
  });
  app.openapi(validateRoute, async (c) => {
    const body = c.req.valid("json");
    return c.json({ tools: await listMcpServerTools(body.server_name, body.server_url) }, 200);
  });
};
