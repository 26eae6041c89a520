/**
 * The agentic tests' workspace task (hand-written test data): `sum-project/` holds `sum.js` with an
 * off-by-one bug and `sum.test.js`, which fails until it is fixed; the template asks whether the test passes.
 */
import { fileURLToPath } from "node:url";

/** The original `sum-project` directory (tests copy it; never run agents in it directly). */
export const SUM_PROJECT = fileURLToPath(new URL("./sum-project/", import.meta.url));

/** The answer template of the task: `tests_pass`, ground truth true. */
export const TESTS_PASS_TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, BooleanMatch


class Answer(BaseAnswer):
    tests_pass: bool = VerifiedField(description="Whether node sum.test.js passes in the workspace", ground_truth=True, verify_with=BooleanMatch())
`;
