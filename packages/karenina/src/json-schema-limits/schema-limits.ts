import { SchemaLimitError, type SchemaPath } from "./errors.js";

/** The most JSON values a schema may have once every `$ref` is expanded. */
export const MAX_SCHEMA_NODES = 10_000;
/** The deepest a schema may nest objects and arrays, `$ref`s expanded. */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * How deep the walk goes before it stops, past {@link MAX_SCHEMA_DEPTH}: a schema too deep is refused at the
 * end of the walk, so that one too large is refused for its size, the graver fault.
 */
const WALK_DEPTH = 1000;
/** `$ref`s shown at each end of a long chain. */
const CHAIN_ENDS = 3;
const DEFS_REF = /^#\/\$defs\//;

type Json = { [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Refuses a JSON Schema from a checkpoint or a template whose expansion would not stay small, before anything
 * walks it: more than {@link MAX_SCHEMA_NODES} JSON values, nesting deeper than {@link MAX_SCHEMA_DEPTH}, or a
 * `$ref` that leads back to itself. It counts what the walkers of the schema will visit: each `$ref` that
 * names an entry of the root's `$defs` (`#/$defs/Name`, resolved as the dummy answer and the lax coercion
 * resolve it) is expanded where it stands, and the constraints of a `type` list are counted once per type, as
 * the judge schema spells the list as an `anyOf` of copies. Every walk of a schema that passes (judge schemas,
 * structured-output schemas, dummy answers, the coercion of judges' answers, with `anyOf` branches tried in
 * turn) is therefore bounded by these limits. The check itself stops at the first limit crossed, so it costs
 * at most that many steps: a "billion laughs" of definitions each referring twice to the previous one is
 * refused after 10,000 of them.
 * @param label what the schema is called in the message (`the fields schema …`).
 * @param root the first segment of the paths in the message; the label by default.
 * @param options `recursion: "through-data"` accepts a `$ref` back to a definition being expanded when the path
 * since went through `properties`, `items`, `prefixItems` or `additionalProperties` (a model holding itself,
 * such as a tree, which Pydantic allows): walkers guided by data stop where the data stops. A cycle made of
 * `$ref`s and `anyOf`s alone is refused whatever the option, as nothing would end its walk.
 * @throws {SchemaLimitError} a limit is crossed; the message names the path, the limit and the `$ref`s being
 * expanded there.
 */
export function assertSchemaWithinLimits(
  schema: unknown,
  label: string,
  root: string = label,
  options: { recursion?: "refuse" | "through-data" } = {},
): void {
  const defs = isObject(schema) && isObject(schema.$defs) ? schema.$defs : {};
  const walk = new ExpansionWalk(defs, label, options.recursion === "through-data");
  walk.visit(schema, { parent: null, segment: root }, 0, []);
  walk.refuseTooDeep();
}

/** Where a value is: its key or index, under its parent's path (a list built as the walk descends). */
interface Path {
  readonly parent: Path | null;
  readonly segment: string | number;
}

const under = (parent: Path, segment: string | number): Path => ({ parent, segment });

function segmentsOf(path: Path): SchemaPath {
  const segments: (string | number)[] = [];
  for (let at: Path | null = path; at !== null; at = at.parent) segments.unshift(at.segment);
  return segments;
}

/** Keys under which a schema describes nested data: going through one consumes a level of the data. */
const DATA_KEYS: ReadonlySet<string> = new Set([
  "properties",
  "items",
  "prefixItems",
  "additionalProperties",
]);

/** A definition being expanded, and how many data levels deep the walk was when it started expanding it. */
interface Expansion {
  readonly name: string;
  readonly dataDepth: number;
}

class ExpansionWalk {
  readonly #defs: Json;
  readonly #label: string;
  readonly #recursionThroughData: boolean;
  #nodes = 0;
  /** How many data levels (`properties`, `items`, ...) the current path has gone through. */
  #dataDepth = 0;
  /** The definitions being expanded at this point of the walk, outermost first. */
  #expanding: Expansion[] = [];
  /** Where the walk first went deeper than the limit. */
  #tooDeep: { path: Path; chain: readonly string[] } | null = null;

  constructor(defs: Json, label: string, recursionThroughData: boolean) {
    this.#defs = defs;
    this.#label = label;
    this.#recursionThroughData = recursionThroughData;
  }

  /** Counts `value` and what it holds; `chain` is the `$defs` names being expanded at this point. */
  visit(value: unknown, path: Path, depth: number, chain: readonly string[]): void {
    this.#count(path, chain);
    if (typeof value !== "object" || value === null) return;
    if (depth >= MAX_SCHEMA_DEPTH) {
      this.#tooDeep ??= { path, chain };
      if (depth >= WALK_DEPTH) this.refuseTooDeep();
    }
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) this.visit(item, under(path, index), depth + 1, chain);
      return;
    }
    const object = value as Json;
    const copies = Array.isArray(object.type)
      ? Math.max(1, object.type.filter((type) => type !== "null").length)
      : 1;
    for (const key of Object.keys(object)) {
      if (depth === 0 && key === "$defs" && object.$defs === this.#defs) {
        this.#visitDefs(under(path, key));
        continue;
      }
      const times = key === "type" ? 1 : copies;
      const data = DATA_KEYS.has(key) ? 1 : 0;
      this.#dataDepth += data;
      for (let copy = 0; copy < times; copy++) this.visit(object[key], under(path, key), depth + 1, chain);
      this.#dataDepth -= data;
    }
    if (typeof object.$ref === "string") this.#expand(object.$ref, path, depth, chain);
  }

  /** Refuses the schema if the walk went deeper than the limit somewhere. */
  refuseTooDeep(): void {
    if (this.#tooDeep === null) return;
    const { path, chain } = this.#tooDeep;
    this.#refuse(path, `nests deeper than ${MAX_SCHEMA_DEPTH} levels${through(chain)}`);
  }

  /** The root's `$defs`: each entry is walked as the expansion of a reference to it. */
  #visitDefs(path: Path): void {
    this.#count(path, []);
    for (const [name, definition] of Object.entries(this.#defs)) {
      this.#expanding.push({ name, dataDepth: this.#dataDepth });
      this.visit(definition, under(path, name), 2, [name]);
      this.#expanding.pop();
    }
  }

  #count(path: Path, chain: readonly string[]): void {
    this.#nodes++;
    if (this.#nodes <= MAX_SCHEMA_NODES) return;
    const verb = chain.length > 0 ? "expands to" : "has";
    this.#refuse(path, `${verb} more than ${MAX_SCHEMA_NODES} nodes${through(chain)}`);
  }

  /** Visits the `$defs` entry `ref` names, in place of the reference. */
  #expand(ref: string, path: Path, depth: number, chain: readonly string[]): void {
    const name = ref.replace(DEFS_REF, "");
    if (!Object.hasOwn(this.#defs, name)) return;
    const open = this.#expanding.find((expansion) => expansion.name === name);
    if (open !== undefined) {
      if (this.#recursionThroughData && this.#dataDepth > open.dataDepth) return;
      this.#refuse(
        path,
        `refers to itself through $ref (${refChain([...chain.slice(chain.indexOf(name)), name])}); a recursive schema cannot be expanded for the judge`,
      );
    }
    this.#expanding.push({ name, dataDepth: this.#dataDepth });
    this.visit(this.#defs[name], path, depth + 1, [...chain, name]);
    this.#expanding.pop();
  }

  #refuse(path: Path, problem: string): never {
    throw new SchemaLimitError(segmentsOf(path), `the ${this.#label} schema ${problem}`);
  }
}

const through = (chain: readonly string[]) => (chain.length > 0 ? ` through $ref (${refChain(chain)})` : "");

/** `#/$defs/L30 → #/$defs/L29 → … → #/$defs/L17`. */
function refChain(names: readonly string[]): string {
  const refs = names.map((name) => `#/$defs/${name}`);
  if (refs.length <= 2 * CHAIN_ENDS) return refs.join(" → ");
  return [
    ...refs.slice(0, CHAIN_ENDS),
    `…(${refs.length - 2 * CHAIN_ENDS} more)`,
    ...refs.slice(-CHAIN_ENDS),
  ].join(" → ");
}
