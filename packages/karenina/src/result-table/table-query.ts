import { z } from "zod";
import {
  type ResultTableRow,
  TABLE_HALLUCINATION_RISKS,
  TABLE_RUBRIC_OUTCOMES,
  TABLE_STATUSES,
  TABLE_VERIFICATIONS,
} from "./table-row.js";

// Filtering, sorting and facets of results-table rows (spec 07 §1.6), over rows held in memory: a run's table
// rows are a few hundred bytes each, so 100,000 of them filter and sort in tens of milliseconds, the same way
// on SQLite and PostgreSQL.

/** A query parameter given once or repeated (`?status=failed&status=abstained`), as a list. */
const many = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(z.array(item))
    .optional();

const timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/u, "expected YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS]")
  .transform((value) => value.replace("T", " "))
  .optional();

/** The filters of the results table, as query parameters; every filter given must hold. */
export const ResultTableFilterSchema = z.object({
  question: z.string().optional().describe("Question text contains (case-insensitive)"),
  raw_answer: z.string().optional().describe("Reference answer contains (case-insensitive)"),
  status: many(z.enum(TABLE_STATUSES)),
  verification: many(z.enum(TABLE_VERIFICATIONS)),
  keyword: many(z.string()).describe("Rows with any of these keywords"),
  answering_model: many(z.string()),
  parsing_model: many(z.string()),
  mcp_server: many(z.string()).describe("Rows using any of these MCP servers"),
  rubric: many(z.enum(TABLE_RUBRIC_OUTCOMES)),
  granular: many(z.enum(["yes", "no"])).describe("yes: the row has a granular score"),
  run_name: many(z.string()),
  replicate: many(
    z
      .string()
      .regex(/^(single|[1-9]\d*)$/u, "expected single or a replicate number")
      .transform((value) => (value === "single" ? ("single" as const) : Number(value))),
  ).describe("Replicate numbers; single = a question run once"),
  time_min: z.coerce.number().min(0).optional().describe("Execution time at least (seconds)"),
  time_max: z.coerce.number().min(0).optional().describe("Execution time at most (seconds)"),
  from: timestamp.describe("Timestamp at or after (local YYYY-MM-DD[ HH:MM:SS])"),
  to: timestamp.describe("Timestamp at or before (a date alone includes that whole day)"),
});
export type ResultTableFilter = z.output<typeof ResultTableFilterSchema>;

/** The columns the table sorts by; `row` is saving order. */
export const TABLE_SORT_COLUMNS = [
  "row",
  "question_text",
  "raw_answer",
  "status",
  "verification",
  "answering_model",
  "parsing_model",
  "granular_score",
  "rubric",
  "hallucination_risk",
  "execution_time",
  "timestamp",
  "run_name",
  "replicate",
] as const;
export type TableSortColumn = (typeof TABLE_SORT_COLUMNS)[number];

export const ResultTableSortSchema = z.object({
  sort: z.enum(TABLE_SORT_COLUMNS).default("row"),
  order: z.enum(["asc", "desc"]).default("asc"),
});
export type ResultTableSort = z.output<typeof ResultTableSortSchema>;

const contains = (needle: string | undefined) => {
  if (needle === undefined || needle === "") return null;
  const lower = needle.toLowerCase();
  return (text: string | null) => text !== null && text.toLowerCase().includes(lower);
};

const anyOf = <T>(wanted: readonly T[] | undefined) => (wanted === undefined ? null : new Set<T>(wanted));

/** A predicate over rows that holds when every filter given holds. */
export function rowPredicate(filter: ResultTableFilter): (row: ResultTableRow) => boolean {
  const checks: Array<(row: ResultTableRow) => boolean> = [];
  const question = contains(filter.question);
  if (question) checks.push((row) => question(row.question_text));
  const answer = contains(filter.raw_answer);
  if (answer) checks.push((row) => answer(row.raw_answer));
  const scalar = <K extends keyof ResultTableRow>(
    key: K,
    wanted: readonly ResultTableRow[K][] | undefined,
  ) => {
    const set = anyOf(wanted);
    if (set) checks.push((row) => set.has(row[key]));
  };
  scalar("status", filter.status);
  scalar("verification", filter.verification);
  scalar("answering_model", filter.answering_model);
  scalar("parsing_model", filter.parsing_model);
  scalar("rubric", filter.rubric);
  scalar("run_name", filter.run_name);
  const list = (key: "keywords" | "mcp_servers", wanted: readonly string[] | undefined) => {
    const set = anyOf(wanted);
    if (set) checks.push((row) => row[key].some((value) => set.has(value)));
  };
  list("keywords", filter.keyword);
  list("mcp_servers", filter.mcp_server);
  const granular = anyOf(filter.granular);
  if (granular) checks.push((row) => granular.has(row.granular_score === null ? "no" : "yes"));
  const replicate = anyOf(filter.replicate);
  if (replicate) checks.push((row) => replicate.has(row.replicate ?? "single"));
  const { time_min: min, time_max: max, from, to } = filter;
  if (min !== undefined) checks.push((row) => row.execution_time >= min);
  if (max !== undefined) checks.push((row) => row.execution_time <= max);
  if (from !== undefined) checks.push((row) => row.timestamp >= from);
  // A date alone ends the day it names: "2026-04-21" holds "2026-04-21 23:59:59".
  const end = to !== undefined && to.length === 10 ? `${to} \uffff` : to;
  if (end !== undefined) checks.push((row) => row.timestamp <= end);
  return (row) => checks.every((check) => check(row));
}

type Sortable = string | number | boolean | null;

function sortKey(column: TableSortColumn): (row: ResultTableRow, index: number) => Sortable {
  switch (column) {
    case "row":
      return (_row, index) => index;
    case "hallucination_risk":
      return (row) =>
        row.hallucination_risk === null ? null : TABLE_HALLUCINATION_RISKS.indexOf(row.hallucination_risk);
    case "status":
      return (row) => TABLE_STATUSES.indexOf(row.status);
    case "verification":
      return (row) => TABLE_VERIFICATIONS.indexOf(row.verification);
    case "rubric":
      return (row) => TABLE_RUBRIC_OUTCOMES.indexOf(row.rubric);
    default:
      return (row) => row[column];
  }
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function compare(a: Sortable, b: Sortable): number {
  if (typeof a === "string" && typeof b === "string") return collator.compare(a, b);
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

/**
 * The rows matching the filter, sorted (stable: ties keep saving order; empty values last in both orders).
 * `rows` are in saving order.
 */
export function selectRows(
  rows: readonly ResultTableRow[],
  filter: ResultTableFilter,
  sort: ResultTableSort,
): ResultTableRow[] {
  const keep = rowPredicate(filter);
  const key = sortKey(sort.sort);
  const picked: Array<{ row: ResultTableRow; key: Sortable; index: number }> = [];
  rows.forEach((row, index) => {
    if (keep(row)) picked.push({ row, key: key(row, index), index });
  });
  if (sort.sort === "row" && sort.order === "asc") return picked.map((entry) => entry.row);
  const sign = sort.order === "asc" ? 1 : -1;
  picked.sort((a, b) => {
    if (a.key === null || b.key === null)
      return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
    return sign * compare(a.key, b.key) || a.index - b.index;
  });
  return picked.map((entry) => entry.row);
}

/** A value of a multi-select filter and how many rows have it. */
export interface FacetValue {
  readonly value: string;
  readonly count: number;
}

export const FACET_NAMES = [
  "status",
  "verification",
  "keyword",
  "answering_model",
  "parsing_model",
  "mcp_server",
  "rubric",
  "granular",
  "run_name",
  "replicate",
] as const;
export type FacetName = (typeof FACET_NAMES)[number];
export type ResultTableFacets = Record<FacetName, FacetValue[]>;

function valuesOf(row: ResultTableRow, facet: FacetName): readonly string[] {
  switch (facet) {
    case "keyword":
      return row.keywords;
    case "mcp_server":
      return row.mcp_servers;
    case "granular":
      return [row.granular_score === null ? "no" : "yes"];
    case "replicate":
      return [row.replicate === null ? "single" : String(row.replicate)];
    case "run_name":
      return row.run_name === null ? [] : [row.run_name];
    default:
      return [row[facet]];
  }
}

/** Values listed per facet by default: a facet can hold a value per row (the replicates of a big run). */
export const FACET_LIMIT = 200;

/** The values of every multi-select filter, and how many distinct values each left out (the least frequent). */
export interface ResultTableFacetList {
  readonly facets: ResultTableFacets;
  readonly omitted: Record<FacetName, number>;
}

/**
 * The values of every multi-select filter over the rows, with counts, most frequent first (ties by value): at
 * most `limit` per facet, with the number of distinct values left out.
 */
export function tableFacets(rows: readonly ResultTableRow[], limit = FACET_LIMIT): ResultTableFacetList {
  const counts = Object.fromEntries(FACET_NAMES.map((name) => [name, new Map<string, number>()])) as Record<
    FacetName,
    Map<string, number>
  >;
  for (const row of rows)
    for (const name of FACET_NAMES)
      for (const value of new Set(valuesOf(row, name)))
        counts[name].set(value, (counts[name].get(value) ?? 0) + 1);
  const listed = (name: FacetName) =>
    [...counts[name]]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || collator.compare(a.value, b.value))
      .slice(0, limit);
  return {
    facets: Object.fromEntries(FACET_NAMES.map((name) => [name, listed(name)])) as ResultTableFacets,
    omitted: Object.fromEntries(
      FACET_NAMES.map((name) => [name, Math.max(0, counts[name].size - limit)]),
    ) as Record<FacetName, number>,
  };
}

/** Whether the filter sets nothing (every row of the runs is shown). */
export const isEmptyFilter = (filter: ResultTableFilter) =>
  Object.values(filter).every((value) => value === undefined);
