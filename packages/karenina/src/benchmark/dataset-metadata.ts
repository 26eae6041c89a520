import { setOwn } from "../plain-data/index.js";
import type { BenchmarkCore } from "./benchmark-core.js";

/** A dataset's creator as schema.org writes it. */
export interface BenchmarkDatasetCreator {
  "@type": "Person" | "Organization";
  name: string;
  [other: string]: unknown;
}

/**
 * A benchmark's dataset metadata as the curator edits it (spec 07 §1.3.8). `name`, `description`, `version`
 * and the creator's name are the benchmark's own fields; the rest are benchmark-level custom properties:
 * `license`, `keywords`, `publisher`, the creator as a schema.org object under `dataset_creator`, and any
 * other property in `custom`.
 */
export interface BenchmarkDatasetMetadata {
  name: string;
  description: string;
  version: string;
  creator: string | BenchmarkDatasetCreator | null;
  license: string | null;
  keywords: string[];
  publisher: string | null;
  custom: Record<string, unknown>;
  date_created: string;
  date_modified: string;
}

/** The custom property holding a Person/Organization creator (the benchmark's `creator` keeps its name). */
export const CREATOR_PROPERTY = "dataset_creator";

/**
 * Benchmark-level properties that are not the curator's `custom` ones: the format marker, the mapped
 * dataset fields, and the legacy global-rubric properties the library reads as traits.
 */
const RESERVED_PROPERTIES = new Set([
  "benchmark_format_version",
  "license",
  "keywords",
  "publisher",
  CREATOR_PROPERTY,
  "global_regex_rubric_traits",
  "global_callable_rubric_traits",
  "global_metric_rubric_traits",
]);

const isCreator = (value: unknown): value is BenchmarkDatasetCreator =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { name?: unknown }).name === "string" &&
  ((value as { "@type"?: unknown })["@type"] === "Person" ||
    (value as { "@type"?: unknown })["@type"] === "Organization");

/**
 * The dataset metadata of a benchmark.
 * @example
 * datasetMetadataOf(Benchmark.create({ name: "demo" })).version; // "0.1.0"
 */
export function datasetMetadataOf(bench: BenchmarkCore): BenchmarkDatasetMetadata {
  const properties = bench.getAllCustomProperties();
  const custom: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(properties)) {
    if (!RESERVED_PROPERTIES.has(name)) setOwn(custom, name, value);
  }
  const creatorObject = bench.getCustomProperty(CREATOR_PROPERTY);
  const keywords = bench.getCustomProperty("keywords");
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    name: bench.name,
    description: bench.description,
    version: bench.version,
    creator: isCreator(creatorObject) ? creatorObject : bench.creator,
    license: text(bench.getCustomProperty("license")),
    keywords: Array.isArray(keywords) ? keywords.filter((k): k is string => typeof k === "string") : [],
    publisher: text(bench.getCustomProperty("publisher")),
    custom,
    date_created: bench.createdAt,
    date_modified: bench.modifiedAt,
  };
}

/**
 * Sets the given dataset metadata fields (absent ones are kept; `null`, `[]` remove a property; `custom`
 * replaces every other custom property) and stamps the benchmark's `dateModified`.
 */
export function setDatasetMetadata(
  bench: BenchmarkCore,
  metadata: Partial<Omit<BenchmarkDatasetMetadata, "date_created" | "date_modified">>,
): void {
  const { name, description, version, creator } = metadata;
  bench.setMetadata({
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    ...(version === undefined ? {} : { version }),
  });
  if (creator !== undefined) {
    bench.creator = creator === null ? "Unknown" : typeof creator === "string" ? creator : creator.name;
    if (creator !== null && typeof creator === "object") bench.setCustomProperty(CREATOR_PROPERTY, creator);
    else bench.removeCustomProperty(CREATOR_PROPERTY);
  }
  const optional = (property: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null || (Array.isArray(value) && value.length === 0)) bench.removeCustomProperty(property);
    else bench.setCustomProperty(property, value);
  };
  optional("license", metadata.license);
  optional("keywords", metadata.keywords);
  optional("publisher", metadata.publisher);
  if (metadata.custom !== undefined) {
    for (const property of Object.keys(bench.getAllCustomProperties())) {
      if (!RESERVED_PROPERTIES.has(property)) bench.removeCustomProperty(property);
    }
    for (const [property, value] of Object.entries(metadata.custom)) {
      if (!RESERVED_PROPERTIES.has(property)) bench.setCustomProperty(property, value);
    }
  }
}
