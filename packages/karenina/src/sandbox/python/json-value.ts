/** Plain JSON data: what crosses the sandbox boundary in both directions. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
