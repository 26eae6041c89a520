/**
 * Trusted JavaScript that every fresh QuickJS context runs before any sandboxed code. It is kept as source
 * text because it runs inside QuickJS, not in Node.
 */

/**
 * Evaluates a script in a scope of its own: a strict direct `eval` gives each script its own variables
 * (top-level `const`, `function` and `var` stay local), and the completion value is the script's value.
 * Evaluated as global code, so the only names the script can see besides the globals are `source` (its own
 * text) and `arguments`.
 */
export const EVALUATOR_SOURCE = `(function (source) {
  "use strict";
  return eval(source);
})`;

/**
 * Builds the bridge the host calls (`load`, `render`, `call`, `describe`) from the evaluator, then freezes
 * the realm: every object reachable from `globalThis` and from the hidden intrinsics (iterator and
 * generator prototypes, iterator helpers) becomes immutable, `globalThis` included.
 * Scripts sharing a context therefore cannot change each other's built-ins nor publish globals.
 * Values cross as JSON text only.
 */
export const BRIDGE_SOURCE = `(function (evaluate) {
  "use strict";
  const { parse, stringify } = JSON;
  const { apply, ownKeys, getOwnPropertyDescriptor, getPrototypeOf } = Reflect;
  const { freeze } = Object;
  const ErrorClass = Error;
  const PromiseClass = Promise;
  const StringOf = String;

  const { slice } = StringOf.prototype;
  // An error's text is cut short: it crosses to the host, where a megabyte message helps nobody.
  const clip = (text, limit) => (text.length > limit ? apply(slice, text, [0, limit]) + "…" : text);
  const describe = (error) => {
    if (error instanceof ErrorClass) {
      return {
        name: clip(StringOf(error.name), 200),
        message: clip(StringOf(error.message), 10000),
        stack: typeof error.stack === "string" ? clip(error.stack, 20000) : "",
      };
    }
    const text = typeof error === "string" ? error : stringify(error);
    return { name: "Uncaught", message: clip(text === undefined ? StringOf(error) : text, 10000), stack: "" };
  };

  const bridge = {
    load(source, wrapperSource) {
      const value = evaluate(source);
      return wrapperSource === undefined ? value : evaluate(wrapperSource)(value);
    },
    render(value) {
      return stringify(value);
    },
    call(target, name, argsJson) {
      const fn = target === null || target === undefined ? undefined : target[name];
      if (typeof fn !== "function") throw new TypeError(name + " is not a function of the script");
      const result = apply(fn, target, parse(argsJson));
      if (result instanceof PromiseClass) {
        throw new TypeError(name + " returned a Promise: sandboxed functions must be synchronous");
      }
      return stringify(result);
    },
    describe(error) {
      return stringify(describe(error));
    },
  };

  const seen = new Set();
  const deepFreeze = (value) => {
    if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value)) return;
    seen.add(value);
    freeze(value);
    deepFreeze(getPrototypeOf(value));
    for (const key of ownKeys(value)) {
      const descriptor = getOwnPropertyDescriptor(value, key);
      if ("value" in descriptor) deepFreeze(descriptor.value);
      else {
        deepFreeze(descriptor.get);
        deepFreeze(descriptor.set);
      }
    }
  };
  const generator = function* () {};
  const asyncGenerator = async function* () {};
  [
    globalThis,
    bridge,
    generator,
    asyncGenerator,
    async function () {},
    generator(),
    asyncGenerator(),
    [][Symbol.iterator](),
    new Map()[Symbol.iterator](),
    new Set()[Symbol.iterator](),
    ""[Symbol.iterator](),
    "".matchAll(/(?:)/g),
    Iterator.from({ next: () => ({ done: true }) }),
    [].values().map((x) => x),
  ].forEach(deepFreeze);
  return bridge;
})`;
