/**
 * Calling the server in route tests: one helper that sends JSON and reads the answer as the shape the test
 * names (`callApi<Page<Run>>(…)`), and the shapes every route shares.
 * @example
 * const { status, json } = await callApi<{ name: string }>(server.url, "POST", "/api/v2/benchmarks", { name: "b" });
 * expect(json.name).toBe("b");
 */

/** The one error envelope of every route. */
export interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly details?: unknown };
}

/** A paged list (`page`/`page_size`). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly page: number;
  readonly page_size: number;
  readonly total: number;
}

/**
 * Sends `body` (as JSON, when given) with `method` to the server at `url`; resolves with the status and the JSON
 * read as `T` (null for an empty body). The shape is the test's claim: its assertions check it.
 */
export async function callApi<T = ErrorBody>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? (null as T) : (JSON.parse(text) as T) };
}
