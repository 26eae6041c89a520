import { TemplateError } from "../answer-template.js";

// The subclasses keep the inherited `name` ("TemplateError"): its declared type is the literal, so it cannot be
// overridden; tell them apart with `instanceof`.

/** The Python exception a check raises in the original, which decides how the failure is reported. */
export type PythonExceptionKind =
  | "ValueError"
  | "TypeError"
  | "KeyError"
  | "NotImplementedError"
  | "OverflowError";

/**
 * An exception raised while checking a field, as the original's `verify()` would raise it. The message is
 * Python's `str(exception)`, so `Field verification failed: <message>` reads as in the original.
 */
export class VerificationError extends TemplateError {
  constructor(
    readonly pythonType: PythonExceptionKind,
    message: string,
  ) {
    super(message);
  }
}

/** A primitive that cannot be built from its serialized form (spec 02 §4.1). */
export class PrimitiveError extends TemplateError {}

/** A TemplateSpec that breaks the rules of spec 02 §9.3; `problems` holds each message. */
export class TemplateSpecError extends TemplateError {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid TemplateSpec:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  }
}

/**
 * Python source that is not a declarative (VerifiedField-only) template, or uses something the native reader
 * does not understand; run it with the Python runtime instead. `line` is 1-based, or null.
 */
export class NotDeclarativeError extends TemplateError {
  constructor(
    readonly reason: string,
    readonly line: number | null = null,
  ) {
    super(`Template is not declarative${line === null ? "" : ` (line ${line})`}: ${reason}`);
  }
}

/**
 * A template whose VerifiedFields the builder cannot lift out of the hand-written code around them without
 * changing that code (spec 07 §1.3.6): `reason` names the construct, `line` (1-based) where it is, or null.
 */
export class TemplateSplitError extends TemplateError {
  constructor(
    readonly reason: string,
    readonly line: number | null = null,
  ) {
    super(`The form cannot edit this template${line === null ? "" : ` (line ${line})`}: ${reason}`);
  }
}
