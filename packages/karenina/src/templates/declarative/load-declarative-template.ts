import type { StrategyNode } from "./composition.js";
import { DeclarativeTemplate } from "./declarative-template.js";
import { NotDeclarativeError } from "./errors.js";
import { pythonToSpec } from "./python-to-spec.js";
import { type TemplateSpecInput, TemplateSpecSchema } from "./template-spec.js";

/**
 * Loads a declarative template from a TemplateSpec (JSON-shaped, defaults filled by the schema) or from the
 * Python source of a VerifiedField template.
 * @param strategy overrides the spec's `verify_strategy` (spec objects only; Python source carries its own).
 * @throws TemplateSpecError for an invalid spec; NotDeclarativeError for Python that is not declarative, or
 *   that the spec cannot reproduce exactly (see `pythonToSpec(...).lossy`); a ZodError for a malformed spec.
 * @example
 * const template = loadDeclarativeTemplate("class Answer(BaseAnswer):\n    n: int = VerifiedField(description='Count', ground_truth=3, verify_with=NumericExact())\n");
 * (await template.evaluate({ n: "3" })).verify; // true
 */
export function loadDeclarativeTemplate(
  source: TemplateSpecInput | string,
  strategy?: StrategyNode | null,
): DeclarativeTemplate {
  if (typeof source !== "string") return new DeclarativeTemplate(TemplateSpecSchema.parse(source), strategy);
  const read = pythonToSpec(source);
  if (read.lossy.length > 0) throw new NotDeclarativeError(read.lossy.join("; "));
  return new DeclarativeTemplate(read.spec, read.strategy);
}
