/**
 * Deep freeze of the calling thread's JavaScript realm, in the spirit of SES's `harden` and Node's
 * `--frozen-intrinsics` (which cannot be used here: it freezes before the memory guard and the import gate
 * patch `WebAssembly`). Run last in the Pyodide worker's start-up, once those patches and Pyodide are in
 * place: a JS object that hostile code might still reach then leads only to frozen objects, so it cannot
 * install a hook (an accessor on `Object.prototype`, a replaced `Function.prototype.apply`, a new global)
 * that the worker's own later work would run.
 */
import { types } from "node:util";

/**
 * Properties that ordinary code assigns on instances (`error.message = ...`, `obj.toString = ...`). Once the
 * prototype holding them is frozen, such an assignment would fail (ECMAScript's "override mistake"), so on
 * prototypes they become accessors whose setter defines the property on the instance instead, as SES and
 * Node's `--frozen-intrinsics` do.
 */
const OVERRIDABLE = new Set<PropertyKey>([
  "constructor",
  "name",
  "message",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toJSON",
]);

/**
 * Freezes every object reachable from `globalThis` and from the intrinsics no global names (iterator and
 * generator prototypes, `%TypedArray%`, `%ThrowTypeError%`, ...), through prototypes and own property
 * descriptors (values, getters and setters), then the global object itself. One property stays writable:
 * `Error.stackTraceLimit`, which V8 reads as a plain data property and Pyodide sets around each error it
 * creates; it only bounds how deep stack traces go. Irreversible.
 */
export function freezeRealm(): void {
  materializeLazyGlobals();
  const roots = [globalThis, ...unnamedIntrinsics()];
  const prototypes = prototypeObjects(reachableFrom(roots));
  for (const prototype of prototypes) keepOverridable(prototype);
  // Walked again: the accessors just made are new functions, to be frozen with the rest.
  for (const object of reachableFrom(roots)) freeze(object);
}

/**
 * Node defines some globals (`crypto`, `DOMException`, the web streams, ...) as accessors that replace
 * themselves with a data property on first read: read them now, while the global object can still change.
 */
function materializeLazyGlobals(): void {
  for (const key of Reflect.ownKeys(globalThis)) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
    if (descriptor?.get === undefined) continue;
    try {
      Reflect.get(globalThis, key);
    } catch {
      // A global whose getter throws holds nothing to freeze; its accessor functions are frozen below.
    }
  }
}

/** Intrinsics that no global property names, each reachable from ordinary syntax. */
function unnamedIntrinsics(): object[] {
  const generator = function* () {
    yield undefined;
  };
  const asyncGenerator = async function* () {
    yield undefined;
  };
  const asyncFunction = async () => undefined;
  const iterators: object[] = [
    [][Symbol.iterator](),
    new Map()[Symbol.iterator](),
    new Set()[Symbol.iterator](),
    ""[Symbol.iterator](),
    /./[Symbol.matchAll](""),
  ];
  // Intl.Segmenter is missing from Node builds without full ICU data.
  const segments = typeof Intl.Segmenter === "function" ? new Intl.Segmenter().segment("") : null;
  const asyncGeneratorPrototype = Object.getPrototypeOf(asyncGenerator).prototype as object;
  const candidates: unknown[] = [
    Object.getPrototypeOf(generator),
    Object.getPrototypeOf(generator).prototype,
    Object.getPrototypeOf(asyncGenerator),
    asyncGeneratorPrototype,
    Object.getPrototypeOf(Object.getPrototypeOf(asyncGeneratorPrototype)),
    Object.getPrototypeOf(asyncFunction),
    Object.getPrototypeOf(Uint8Array),
    Object.getOwnPropertyDescriptor(Function.prototype, "caller")?.get,
    segments && Object.getPrototypeOf(segments),
    segments && Object.getPrototypeOf(segments[Symbol.iterator]()),
    ...iterators.map((iterator) => Object.getPrototypeOf(iterator)),
  ];
  return candidates.filter(isObject);
}

/** Every object reachable from `roots` through prototypes and own property descriptors. Proxies are left out. */
function reachableFrom(roots: readonly object[]): Set<object> {
  const seen = new Set<object>();
  const pending = [...roots];
  for (let object = pending.pop(); object !== undefined; object = pending.pop()) {
    if (seen.has(object) || types.isProxy(object)) continue;
    seen.add(object);
    const prototype = Object.getPrototypeOf(object) as unknown;
    if (isObject(prototype)) pending.push(prototype);
    for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(object))) {
      for (const linked of [descriptor.value, descriptor.get, descriptor.set]) {
        if (isObject(linked)) pending.push(linked);
      }
    }
  }
  return seen;
}

/** The objects among `objects` that serve as prototypes: some constructor's `prototype`, or another's parent. */
function prototypeObjects(objects: ReadonlySet<object>): Set<object> {
  const prototypes = new Set<object>();
  for (const object of objects) {
    const parent = Object.getPrototypeOf(object) as unknown;
    if (isObject(parent)) prototypes.add(parent);
    const own = Object.getOwnPropertyDescriptor(object, "prototype");
    if (typeof object === "function" && isObject(own?.value)) prototypes.add(own.value);
  }
  return prototypes;
}

/** Turns the {@link OVERRIDABLE} data properties of a prototype into accessors that keep them assignable. */
function keepOverridable(prototype: object): void {
  if (types.isProxy(prototype)) return;
  for (const key of Reflect.ownKeys(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
    if (!OVERRIDABLE.has(key) || !descriptor?.configurable || !descriptor.writable) continue;
    const { value } = descriptor;
    Object.defineProperty(prototype, key, {
      get: function getInherited(): unknown {
        return value;
      },
      set: function overrideOnInstance(this: unknown, replacement: unknown): void {
        if (this === prototype || !isObject(this)) {
          throw new TypeError(`Cannot assign to read only property '${String(key)}' of a frozen prototype`);
        }
        Object.defineProperty(this, key, {
          value: replacement,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      },
      enumerable: descriptor.enumerable ?? false,
      configurable: false,
    });
  }
}

/** `Object.freeze`, except for `Error.stackTraceLimit` and the elements of typed arrays (which cannot be frozen). */
function freeze(object: object): void {
  if (object === Error) {
    freezeAllBut(Error, "stackTraceLimit");
  } else if (ArrayBuffer.isView(object)) {
    Object.preventExtensions(object);
  } else {
    Object.freeze(object);
  }
}

function freezeAllBut(object: object, writableKey: PropertyKey): void {
  for (const key of Reflect.ownKeys(object)) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor === undefined) continue;
    const isData = "value" in descriptor;
    Object.defineProperty(object, key, {
      configurable: false,
      ...(isData ? { writable: key === writableKey && descriptor.writable === true } : {}),
    });
  }
  Object.preventExtensions(object);
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}
