import type { ResultsSource } from "./results-source.js";

/**
 * The results source a page address names: `#/benchmark?run=ID[&run=ID2][&db=NAME][&label=TEXT]`, as
 * `karenina view` prints it. No `db`: the server's own database. Undefined when the hash names no run.
 * @example sourceOfHash("#/benchmark?run=r1&label=Run%20nightly") // {db: null, runIds: ["r1"], label: "Run nightly"}
 */
export function sourceOfHash(hash: string): ResultsSource | undefined {
  const match = /^#\/benchmark\?(.*)$/.exec(hash);
  if (match === null) return undefined;
  const query = new URLSearchParams(match[1]);
  const runIds = query.getAll("run").filter((id) => id !== "");
  if (runIds.length === 0) return undefined;
  const db = query.get("db");
  const label = query.get("label");
  return {
    db: db === null || db === "" ? null : db,
    runIds,
    label: label === null || label === "" ? defaultLabel(runIds) : label,
  };
}

function defaultLabel(runIds: readonly string[]): string {
  return runIds.length === 1 ? `Run ${runIds[0]}` : `${runIds.length} runs`;
}

/** The address hash that opens a results source (what {@link sourceOfHash} reads). */
export function hashOfSource(source: Pick<ResultsSource, "db" | "runIds" | "label">): string {
  const query = new URLSearchParams();
  if (source.db !== null) query.set("db", source.db);
  for (const id of source.runIds) query.append("run", id);
  query.set("label", source.label);
  return `#/benchmark?${query.toString()}`;
}
