export {
  type ApiOptions,
  ApiRequestError,
  accessToken,
  apiFetch,
  authHeaders,
  errorOf,
  queryString,
  withTokenQuery,
} from "./api-client.js";
export { type RequestState, useDebouncedRequest } from "./use-debounced-request.js";
