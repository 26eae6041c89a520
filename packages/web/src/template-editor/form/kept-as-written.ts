import type { BuilderTemplateRemainder } from "../../library-types/index.js";

/**
 * A mixed template's hand-written part as it reads in the code, with one comment line standing where the
 * form's VerifiedFields are written.
 */
export function keptAsWrittenText(className: string, remainder: BuilderTemplateRemainder): string {
  return [
    remainder.module_head,
    `class ${className}(BaseAnswer):\n`,
    remainder.class_body_head,
    `${remainder.body_indent}# … the VerifiedFields of the form are written here …\n`,
    remainder.class_body_tail,
    remainder.module_tail,
  ].join("");
}
