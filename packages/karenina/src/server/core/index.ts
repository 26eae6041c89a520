export {
  ApiError,
  type ApiErrorBody,
  ApiErrorBodySchema,
  errorResponse,
  invalidRequest,
} from "./api-error.js";
export { errorResponses, jsonContent } from "./openapi.js";
export { type PageQuery, PageQuerySchema, pageOf, pageSchema } from "./paging.js";
export type { RouteGroup, ServerApp, ServerDeps, ServerEnv, ServerFleet, ServerHooks } from "./server-env.js";
