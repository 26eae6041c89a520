import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { INTERFACES, PROVIDERS } from "../../pipeline/index.js";
import { jsonContent, type RouteGroup } from "../core/index.js";

export const ModelInterfaceSchema = z
  .object({
    name: z.string().describe("The `interface` of a model config"),
    agent_tier: z.enum(["tool_loop", "deep_agent"]),
    requires_provider: z.boolean().describe("Whether a model of it needs `model_provider`"),
    answering: z.boolean().describe("Whether it may answer"),
    parsing: z.boolean().describe("Whether it may parse (judge)"),
  })
  .meta({ id: "ModelInterface" });

export const ModelInterfacesSchema = z
  .object({
    interfaces: z.array(ModelInterfaceSchema),
    providers: z
      .array(z.string())
      .describe("The `model_provider` values the LangChain-style interfaces serve"),
  })
  .meta({ id: "ModelInterfaces" });

const listInterfaces = createRoute({
  method: "get",
  path: "/api/v2/interfaces",
  tags: ["config"],
  summary: "The model interfaces of the adapter registry, and the providers the LangChain-style ones serve",
  responses: { 200: jsonContent(ModelInterfacesSchema, "The registry") },
});

/**
 * The interfaces a model card may pick, from the library's registry (`INTERFACES`), in its order. `taskeval`
 * (no LLM behind it) is left out; `manual` replays uploaded traces, so it answers but never parses.
 */
export function modelInterfaces(): z.infer<typeof ModelInterfacesSchema> {
  const interfaces = Object.entries(INTERFACES)
    .filter(([, spec]) => spec.target !== "none")
    .map(([name, spec]) => ({
      name,
      agent_tier: spec.agentTier,
      requires_provider: spec.requiresProvider,
      answering: true,
      parsing: name !== "manual",
    }));
  return { interfaces, providers: Object.keys(PROVIDERS) };
}

/** `GET /api/v2/interfaces`: what the run screen's model cards offer (spec 07 §1.5 Fix). */
export const interfaceRoutes: RouteGroup = (app) => {
  app.openapi(listInterfaces, (c) => c.json(modelInterfaces(), 200));
};
