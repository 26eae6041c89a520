/**
 * Python's `json.dumps` with its default separators (`", "`, `": "`), numbers as Python renders them, and
 * the float/int distinction Python keeps but a JS number loses.
 *
 * Why not `pythonJsonDumps` of `checkpoint/`: that one always escapes non-ASCII (the export rows keep UTF-8)
 * and writes every integral number as an int, while an export must write `1714000000.0` where the original
 * held a float. Which numbers are floats is declared per field with a {@link FloatSpec} (taken from the
 * result schema: see `ROW_FLOATS`), and any {@link PyFloat} value is a float wherever it sits.
 */
import { PyFloat } from "./py-float.js";
import { floatRepr } from "./python-repr.js";

/**
 * Where a JSON tree holds Python floats: `true` marks a float (every number at or below that point), an
 * object names the keys below which floats sit, and the key `"*"` stands for any key or array item.
 */
export type FloatSpec = true | { readonly [key: string]: FloatSpec };

/** How {@link pythonJson} writes. */
export interface PythonJsonOptions {
  /** Escape every non-ASCII character as `\uXXXX` (Python's default, used by CSV cells). Default false. */
  readonly ensureAscii?: boolean;
  /** Which numbers are floats. Default: none (integral numbers are ints). */
  readonly floats?: FloatSpec;
}

/**
 * A value as Python's `json.dumps(value, ensure_ascii=...)` writes it: separators `", "` and `": "`, keys in
 * insertion order, `undefined` entries left out, floats (per {@link FloatSpec} or {@link PyFloat}) with
 * Python's repr (`5.0`, `1e-05`), integral numbers elsewhere as ints, non-integral ones as floats.
 */
export function pythonJson(value: unknown, options: PythonJsonOptions = {}): string {
  const quote = options.ensureAscii ? asciiString : JSON.stringify;
  const write = (node: unknown, spec: FloatSpec | undefined): string => {
    if (node === null || node === undefined) return "null";
    if (typeof node === "string") return quote(node);
    if (typeof node === "boolean") return node ? "true" : "false";
    if (typeof node === "number") return numberText(node, spec === true);
    if (node instanceof PyFloat) return numberText(node.value, true);
    if (typeof node === "bigint") return node.toString();
    if (Array.isArray(node)) {
      const item = child(spec, "*");
      return `[${node.map((entry) => write(entry, item)).join(", ")}]`;
    }
    if (typeof node === "object") {
      const json = (node as { toJSON?: () => unknown }).toJSON;
      if (typeof json === "function") return write(json.call(node), spec);
      const parts: string[] = [];
      for (const [key, entry] of Object.entries(node as Record<string, unknown>)) {
        if (entry === undefined) continue;
        parts.push(`${quote(key)}: ${write(entry, child(spec, key))}`);
      }
      return `{${parts.join(", ")}}`;
    }
    return quote(String(node));
  };
  return write(value, options.floats);
}

function child(spec: FloatSpec | undefined, key: string): FloatSpec | undefined {
  if (spec === undefined || spec === true) return spec;
  return (Object.hasOwn(spec, key) ? spec[key] : undefined) ?? spec["*"];
}

/** A number as Python's json writes a float (`float.__repr__`, `NaN`, `Infinity`) or an int. */
function numberText(value: number, float: boolean): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (float || !Number.isInteger(value)) return floatRepr(value);
  return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
}

/** A JSON string with every code unit outside printable ASCII escaped, as Python's `ensure_ascii=True`. */
function asciiString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
