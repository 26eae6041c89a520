import { TemplateError } from "../answer-template.js";

/** The most JSON values a template's fields schema may have once every `$ref` is expanded. */
export const MAX_FIELDS_SCHEMA_NODES = 10_000;
/** The deepest a template's fields schema may nest objects and arrays, `$ref`s expanded. */
export const MAX_FIELDS_SCHEMA_DEPTH = 64;

/**
 * How deep the walk goes before it stops, past {@link MAX_FIELDS_SCHEMA_DEPTH}: a schema too deep is refused
 * at the end of the walk, so that one too large is refused for its size, the graver fault.
 */
const WALK_DEPTH = 1000;
/** Path segments shown at each end of a long path; the middle is counted instead. */
const PATH_ENDS = 6;
/** `$ref`s shown at each end of a long chain. */
const CHAIN_ENDS = 3;
const DEFS_REF = /^#\/\$defs\//;

type Json = { [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Refuses a template's fields schema whose expansion would not stay small, before anything walks it: more
 * than {@link MAX_FIELDS_SCHEMA_NODES} JSON values, nesting deeper than {@link MAX_FIELDS_SCHEMA_DEPTH}, or a
 * `$ref` that leads back to itself. It counts what the walkers of the schema will visit: each `$ref` that
 * names an entry of the root's `$defs` (`#/$defs/Name`, resolved as the dummy answer and the lax coercion
 * resolve it) is expanded where it stands, and the constraints of a `type` list are counted once per type,
 * as the judge schema spells the list as an `anyOf` of copies. The judge schema, the structured-output
 * schema, the load-time dummy answer and the coercion of judges' answers are therefore bounded by these
 * limits. The walk itself stops at the first limit crossed, so it costs at most that many steps: a "billion
 * laughs" of definitions each referring twice to the previous one is refused after 10,000 of them.
 * @throws {TemplateError} a limit is crossed; the message names the path in `fields`, the limit and the
 * `$ref`s being expanded there.
 */
export function assertFieldsSchemaWithinLimits(fields: unknown): void {
  const defs = isObject(fields) && isObject(fields.$defs) ? fields.$defs : {};
  const walk = new ExpansionWalk(defs);
  walk.visit(fields, { parent: null, segment: "fields" }, 0, []);
  walk.refuseTooDeep();
}

/** Where a value is in `fields`: its key or index, under its parent's path (a list built as the walk descends). */
interface Path {
  readonly parent: Path | null;
  readonly segment: string | number;
}

const under = (parent: Path, segment: string | number): Path => ({ parent, segment });

class ExpansionWalk {
  readonly #defs: Json;
  #nodes = 0;
  /** Where the walk first went deeper than the limit. */
  #tooDeep: { path: Path; chain: readonly string[] } | null = null;

  constructor(defs: Json) {
    this.#defs = defs;
  }

  /** Counts `value` and what it holds; `chain` is the `$defs` names being expanded at this point. */
  visit(value: unknown, path: Path, depth: number, chain: readonly string[]): void {
    this.#count(path, chain);
    if (typeof value !== "object" || value === null) return;
    if (depth >= MAX_FIELDS_SCHEMA_DEPTH) {
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
      for (let copy = 0; copy < times; copy++) this.visit(object[key], under(path, key), depth + 1, chain);
    }
    if (typeof object.$ref === "string") this.#expand(object.$ref, path, depth, chain);
  }

  /** Refuses the schema if the walk went deeper than the limit somewhere. */
  refuseTooDeep(): void {
    if (this.#tooDeep === null) return;
    const { path, chain } = this.#tooDeep;
    const through = chain.length > 0 ? ` through $ref (${refChain(chain)})` : "";
    refuse(path, `the fields schema nests deeper than ${MAX_FIELDS_SCHEMA_DEPTH} levels${through}`);
  }

  /** The root's `$defs`: each entry is walked as the expansion of a reference to it. */
  #visitDefs(path: Path): void {
    this.#count(path, []);
    for (const [name, definition] of Object.entries(this.#defs)) {
      this.visit(definition, under(path, name), 2, [name]);
    }
  }

  #count(path: Path, chain: readonly string[]): void {
    this.#nodes++;
    if (this.#nodes <= MAX_FIELDS_SCHEMA_NODES) return;
    const through = chain.length > 0 ? ` through $ref (${refChain(chain)})` : "";
    const verb = chain.length > 0 ? "expands to" : "has";
    refuse(path, `the fields schema ${verb} more than ${MAX_FIELDS_SCHEMA_NODES} nodes${through}`);
  }

  /** Visits the `$defs` entry `ref` names, in place of the reference. */
  #expand(ref: string, path: Path, depth: number, chain: readonly string[]): void {
    const name = ref.replace(DEFS_REF, "");
    if (!Object.hasOwn(this.#defs, name)) return;
    if (chain.includes(name)) {
      refuse(
        path,
        `the fields schema refers to itself through $ref (${refChain([...chain.slice(chain.indexOf(name)), name])}); a recursive schema cannot be expanded for the judge`,
      );
    }
    this.visit(this.#defs[name], path, depth + 1, [...chain, name]);
  }
}

function refuse(path: Path, problem: string): never {
  throw new TemplateError(`${pathText(path)}: ${problem}: refused`);
}

/** `fields.properties.a.anyOf[0]`, its middle left out when long. */
function pathText(path: Path): string {
  const segments: (string | number)[] = [];
  for (let at: Path | null = path; at !== null; at = at.parent) segments.unshift(at.segment);
  const text = (part: readonly (string | number)[]) =>
    part.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
  if (segments.length <= 2 * PATH_ENDS) return text(segments).slice(1);
  const hidden = segments.length - 2 * PATH_ENDS;
  return `${text(segments.slice(0, PATH_ENDS)).slice(1)}…(${hidden} more)…${text(segments.slice(-PATH_ENDS))}`;
}

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
