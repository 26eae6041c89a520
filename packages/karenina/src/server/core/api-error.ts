import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { dottedPath, KareninaError, schemaProblems } from "../../errors/index.js";

/** The one error envelope of every failing `/api` response (spec 07 §2.1, our decision). */
export const ApiErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().describe("A stable, machine-readable code, e.g. `not_found`, `invalid_request`"),
      message: z.string().describe("What went wrong and what to do, naming the field where there is one"),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "ApiError" });
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

/** An error a route throws on purpose: its status, code and message reach the client as they are. */
export class ApiError extends KareninaError {
  override readonly name = "ApiError";

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  static notFound(what: string): ApiError {
    return new ApiError(404, "not_found", `${what} not found`);
  }

  static conflict(message: string, details?: unknown): ApiError {
    return new ApiError(409, "conflict", message, details);
  }

  static badRequest(message: string, details?: unknown): ApiError {
    return new ApiError(400, "bad_request", message, details);
  }
}

/** The envelope for `error`, as a JSON response. */
export function errorResponse(c: Context, error: ApiError): Response {
  const body: ApiErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
  return c.json(body, error.status);
}

/**
 * A request that failed its schema: 422 with every problem named by its field (`body.config.replicate_count:
 * expected number, found a string "two"`).
 */
export function invalidRequest(where: string, error: z.ZodError, input: unknown): ApiError {
  const problems = schemaProblems(error, input).map((problem) => ({
    field: [where, dottedPath(problem.path)].filter((part) => part !== "").join("."),
    message: problem.message,
  }));
  const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ");
  return new ApiError(422, "invalid_request", message || `invalid ${where}`, problems);
}
