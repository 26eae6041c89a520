import type { z } from "zod";
import { ApiErrorBodySchema } from "./api-error.js";

/** `content` of a JSON request or response in a route definition. */
export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

/** The error responses a route declares, each with the one envelope (pass the statuses it can answer). */
export function errorResponses(
  ...statuses: readonly (400 | 401 | 403 | 404 | 409 | 413 | 422 | 500 | 502 | 503)[]
) {
  return Object.fromEntries(
    statuses.map((status) => [status, jsonContent(ApiErrorBodySchema, `Error ${status}`)]),
  );
}
