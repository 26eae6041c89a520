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
