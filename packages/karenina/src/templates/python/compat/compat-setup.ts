import { pythonAsset } from "../../../python-assets/index.js";
import { INJECTED_TEMPLATE_NAMES, KARENINA_MODULES } from "../../declarative/index.js";

/**
 * The private modules behind the public tree, in import order: `[module name, its source]`. Each source is the
 * `.py` file of the module's name beside this one, read the first time a template sandbox needs the setup.
 * - `pydantic`: a pure-Python subset of Pydantic v2 (models with lax coercion, `Field` constraints, `ConfigDict`,
 *   `model_json_schema()` in Pydantic's exact shape, `model_dump()`, `ValidationError`);
 * - `typing_extensions` (which the original's environment has, through Pydantic): an alias of `typing`;
 * - `_karenina_dates`: a lenient subset of `dateutil.parser.parse` for the date primitives (spec 02 §6.6); its
 *   docstring lists the formats it reads, anything else is a parse failure, so the check is false;
 * - `_karenina_primitives`: the 23 verification primitives, normalizers and `SynonymMap`, the composition nodes and
 *   conditional ground truth, with the Python semantics of spec 02 §4–§7;
 * - `_karenina_answer`: `BaseAnswer` and `VerifiedField` (spec 02 §2, §4): the ground-truth hooks, automatic
 *   `verify()`/`verify_granular()` for VerifiedField templates, and `verify_regex()`;
 * - `_karenina_public`: the objects of the original's public module tree the others do not define (turn scopes,
 *   normalizer and composition helpers, `VerificationMeta`, the primitive registry), and `CATALOGUE`, every public
 *   name with its one object, from which the module tree is built.
 */
const PRIVATE_MODULES: ReadonlyArray<readonly [string, () => string]> = [
  ["pydantic", pythonAsset(new URL("./pydantic.py", import.meta.url))],
  ["typing_extensions", pythonAsset(new URL("./typing_extensions.py", import.meta.url))],
  ["_karenina_dates", pythonAsset(new URL("./_karenina_dates.py", import.meta.url))],
  ["_karenina_primitives", pythonAsset(new URL("./_karenina_primitives.py", import.meta.url))],
  ["_karenina_answer", pythonAsset(new URL("./_karenina_answer.py", import.meta.url))],
  ["_karenina_public", pythonAsset(new URL("./_karenina_public.py", import.meta.url))],
];

/**
 * `_karenina_bridge`, what the TypeScript side calls: `load_template` (execute, discover the class, validate as
 * spec 02 §8, describe) and `evaluate_batch` (coerce, verify, regex checks, granular score; spec 02 §2.3–2.7).
 */
const BRIDGE = pythonAsset(new URL("./_karenina_bridge.py", import.meta.url));

/**
 * `register` runs one module's source into `sys.modules`; `publish` makes one module of the public tree whose
 * names are the catalogue's objects (so every path yields the same object) and hangs it on its parent package.
 */
const REGISTER = pythonAsset(new URL("./compat_setup.py", import.meta.url));

let setup: string | undefined;

/**
 * The trusted `setup` of the Python sandbox for templates: registers `pydantic`, the original's public module tree
 * (`karenina`, `karenina.schemas`, `karenina.schemas.entities`, `karenina.schemas.primitives`, their submodules;
 * see `KARENINA_MODULES`) and the private modules behind them. Each source travels as a JSON string literal, which
 * Python reads as the same string. Built once, on first use: printing help or reading a checkpoint reads no file.
 */
export function pythonCompatSetup(): string {
  setup ??= [
    REGISTER(),
    ...PRIVATE_MODULES.map(
      ([name, source]) => `register(${JSON.stringify(name)}, ${JSON.stringify(source())})`,
    ),
    ...Object.entries(KARENINA_MODULES).map(
      ([name, module]) =>
        `publish(${JSON.stringify(name)}, ${JSON.stringify(module.names)}, ${module.package ? "True" : "False"})`,
    ),
    `sys.modules["_karenina_public"].INJECTED_NAMES = tuple(${JSON.stringify(INJECTED_TEMPLATE_NAMES)})`,
    `register("_karenina_bridge", ${JSON.stringify(BRIDGE())})`,
  ].join("\n");
  return setup;
}

/**
 * The entry expression of a sandbox call to one of the bridge's functions (the call's code is empty): the
 * cheapest way to reach a module, as the sandbox compiles both the code and the entry at every call.
 */
export function bridgeEntry(name: "evaluate_batch" | "load_template"): string {
  return `__import__("_karenina_bridge").${name}`;
}
