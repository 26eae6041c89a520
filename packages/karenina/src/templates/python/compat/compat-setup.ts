import { ANSWER_SOURCE } from "./answer.js";
import { BRIDGE_SOURCE } from "./bridge.js";
import { DATES_SOURCE } from "./dates.js";
import { ENTITIES_SOURCE } from "./entities.js";
import { PRIMITIVES_SOURCE } from "./primitives.js";
import { PYDANTIC_SOURCE } from "./pydantic.js";

/** The modules of the compatibility layer, in import order: `[name, source, isPackage]`. */
const MODULES: ReadonlyArray<readonly [string, string, boolean]> = [
  ["pydantic", PYDANTIC_SOURCE, false],
  ["_karenina_dates", DATES_SOURCE, false],
  ["_karenina_primitives", PRIMITIVES_SOURCE, false],
  ["_karenina_answer", ANSWER_SOURCE, false],
  ["karenina", "", true],
  ["karenina.schemas", "", true],
  ["karenina.schemas.entities", ENTITIES_SOURCE, false],
  ["_karenina_bridge", BRIDGE_SOURCE, false],
];

/** Registers one module in `sys.modules` (and as an attribute of its parent package) from its source. */
// biome-ignore lint/complexity/noUselessStringRaw: Python source, kept verbatim like the others
const REGISTER = String.raw`
import sys, types

def register(name, source, package):
    module = types.ModuleType(name)
    if package:
        module.__path__ = []
    sys.modules[name] = module
    try:
        exec(compile(source, "<" + name + ">", "exec", dont_inherit=True), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
`;

/** `karenina.schemas` re-exports what `karenina.schemas.entities` defines, as the original package does. */
// biome-ignore lint/complexity/noUselessStringRaw: Python source, kept verbatim like the others
const REEXPORT = String.raw`
entities = sys.modules["karenina.schemas.entities"]
vars(sys.modules["karenina.schemas"]).update({name: getattr(entities, name) for name in entities.INJECTED_NAMES})
`;

/**
 * The trusted `setup` of the Python sandbox for templates: registers `pydantic`, `karenina`,
 * `karenina.schemas`, `karenina.schemas.entities` and the private modules behind them. Each source travels as a
 * JSON string literal, which Python reads as the same string.
 */
export const PYTHON_COMPAT_SETUP = [
  REGISTER,
  ...MODULES.map(
    ([name, source, isPackage]) =>
      `register(${JSON.stringify(name)}, ${JSON.stringify(source)}, ${isPackage ? "True" : "False"})`,
  ),
  REEXPORT,
].join("\n");

/**
 * The entry expression of a sandbox call to one of the bridge's functions (the call's code is empty): the
 * cheapest way to reach a module, as the sandbox compiles both the code and the entry at every call.
 */
export function bridgeEntry(name: "evaluate_batch" | "load_template"): string {
  return `__import__("_karenina_bridge").${name}`;
}
