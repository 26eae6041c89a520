/**
 * The one way the screens talk to `karenina serve`: JSON over fetch, the access token when the page was given
 * one, and the server's error envelope (`{error: {code, message, details?}}`) turned into an
 * {@link ApiRequestError} whose message a toast can show as it is.
 */

/** A failed API call: the HTTP status and the server's code and message (or what went wrong on the way). */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** The access token `karenina serve` hands the page in `<meta name="karenina-token">`, if any. */
export function accessToken(doc: Pick<Document, "querySelector"> = document): string | undefined {
  const content = doc.querySelector('meta[name="karenina-token"]')?.getAttribute("content");
  return content === null || content === undefined || content === "" ? undefined : content;
}

/** Headers every request carries: the token as a bearer when the page has one. */
export function authHeaders(token = accessToken()): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** A URL with the token in `?token=` (for GET requests a header cannot go with: EventSource, downloads). */
export function withTokenQuery(path: string, token = accessToken()): string {
  if (token === undefined) return path;
  return `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
}

/** The query string of the defined values of `params` (arrays repeat their key), with its leading `?`. */
export function queryString(
  params: Readonly<Record<string, string | number | boolean | readonly string[] | undefined | null>>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

interface ErrorEnvelope {
  readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly details?: unknown };
}

/** The {@link ApiRequestError} of a non-2xx response, from its envelope when it has one. */
export async function errorOf(response: Response): Promise<ApiRequestError> {
  const text = await response.text().catch(() => "");
  try {
    const { error } = JSON.parse(text) as ErrorEnvelope;
    if (error !== undefined && typeof error.message === "string")
      return new ApiRequestError(
        response.status,
        typeof error.code === "string" ? error.code : "error",
        error.message,
        error.details,
      );
  } catch {
    // Not the envelope: fall through to the status line.
  }
  const statusText = response.statusText === "" ? "" : ` ${response.statusText}`;
  return new ApiRequestError(
    response.status,
    "http_error",
    `the server answered ${response.status}${statusText}`,
  );
}

export interface ApiOptions {
  readonly method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

/**
 * Calls the API and returns the parsed JSON body (undefined for 204).
 * @throws ApiRequestError on a non-2xx answer, or status 0 when the server cannot be reached
 */
export async function apiFetch<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...authHeaders() };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiRequestError(
      0,
      "unreachable",
      "the karenina server cannot be reached: is `karenina serve` still running?",
    );
  }
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
