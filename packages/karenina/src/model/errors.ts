import { dottedPath, KareninaError, type SchemaProblem } from "../errors/index.js";

/** Input to a model object (a question, a registry entry, a trait) broke its schema. */
export class ModelValidationError extends KareninaError {
  override readonly name = "ModelValidationError";

  constructor(
    readonly subject: string,
    readonly problems: readonly SchemaProblem[],
  ) {
    super(
      `Invalid ${subject}: ${problems
        .map((p) => (p.path.length > 0 ? `${dottedPath(p.path)}: ${p.message}` : p.message))
        .join("; ")}`,
    );
  }
}
