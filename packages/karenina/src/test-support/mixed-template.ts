/**
 * A mixed Python template (hand-written test data): a VerifiedField the visual builder edits beside a classic
 * field and a hand-written `verify()` it keeps as written (spec 07 §1.3.6). Shared by the builder's library,
 * route and browser tests.
 */
import type { TemplateSpec } from "../templates/index.js";
import { BCL2_TARGET_FIELD } from "./template-specs.js";

/** `verify()` passes when the VerifiedField passes and the response does not hedge (`note` starts "maybe"). */
export const MIXED_TEMPLATE = `from pydantic import Field
from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    """What the response says about venetoclax."""

    target: str = VerifiedField(description="Target protein named in the response", ground_truth="BCL2", verify_with=ExactMatch(normalize=["lowercase", "strip"]))
    note: str = Field(description="How sure the response is, in its own words")

    def verify(self):
        # Hand-written: the VerifiedFields must pass and the response must not hedge.
        return super().verify() and not self.note.lower().startswith("maybe")
`;

/** The spec of {@link MIXED_TEMPLATE}'s VerifiedField. */
export const MIXED_TEMPLATE_SPEC: TemplateSpec = {
  class_name: "Answer",
  verify_strategy: null,
  fields: [BCL2_TARGET_FIELD],
};

/** What {@link MIXED_TEMPLATE} keeps as written: everything but the VerifiedField's line. */
export const MIXED_TEMPLATE_REMAINDER = {
  module_head: MIXED_TEMPLATE.slice(0, MIXED_TEMPLATE.indexOf("class Answer")),
  class_body_head: '    """What the response says about venetoclax."""\n',
  class_body_tail: MIXED_TEMPLATE.slice(MIXED_TEMPLATE.indexOf("    note: str")),
  module_tail: "",
  body_indent: "    ",
};

/**
 * Parsed answers (as a judge returns them) whose verdicts tell ground truths BCL2 and MCL1 apart, and show the
 * hand-written `verify()` at work (the last one hedges).
 */
export const MIXED_TEMPLATE_ANSWERS = [
  { target: " mcl1 ", note: "certain" },
  { target: "BCL2", note: "certain" },
  { target: "MCL1", note: "maybe MCL1" },
];
