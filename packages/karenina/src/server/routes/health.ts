import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { jsonContent, type RouteGroup } from "../core/index.js";

const HealthSchema = z.object({ status: z.literal("healthy") }).meta({ id: "Health" });

const health = createRoute({
  method: "get",
  path: "/api/health",
  tags: ["health"],
  summary: "Whether the server is up",
  responses: { 200: jsonContent(HealthSchema, "The server is up") },
});

/** `GET /api/health` (spec 07 §2.2). */
export const healthRoutes: RouteGroup = (app) => {
  app.openapi(health, (c) => c.json({ status: "healthy" as const }, 200));
};
