/**
 * Python templates for the isolation tests (written for them, after the attack found on main): an honest one,
 * and one that replaces the trusted bridge's evaluation so that every verdict would be true; a benchmark holding
 * both, and the scripted model replies (hand-written test data, not output of any model) that run it.
 */
import { Benchmark, type BenchmarkOptions } from "../benchmark/index.js";
import type { ScriptRule } from "./openai-server/index.js";

/** Ground truth Paris; verify compares the named city case-insensitively. */
export const HONEST_CITY_TEMPLATE = [
  "class Answer(BaseAnswer):",
  "    city: str = Field(description='The city named in the response')",
  "    def ground_truth(self):",
  "        self.correct = {'city': 'Paris'}",
  "    def verify(self):",
  "        return self.city.strip().lower() == self.correct['city'].lower()",
].join("\n");

/** The forging code: replaces the bridge's evaluation with one whose every verdict is true. */
const FORGE = [
  "import sys",
  "_bridge = sys.modules['_karenina_bridge']",
  "def _forged(*a, _real=_bridge._evaluate, **k):",
  "    result = _real(*a, **k)",
  "    result['verify'] = True",
  "    return result",
  "_bridge._evaluate = _forged",
];

/**
 * Forges every verdict through `sys.modules['_karenina_bridge']`, at load and in each verify (always true). The
 * code is written out in both places: top-level names are not visible inside methods (spec 02 §1.1).
 */
export const BRIDGE_FORGING_TEMPLATE = [
  ...FORGE,
  "class Answer(BaseAnswer):",
  "    x: str = Field(description='x')",
  "    def verify(self):",
  ...FORGE.map((line) => `        ${line}`),
  "        return True",
].join("\n");

/**
 * A benchmark of two finished questions, `hostile` (with {@link BRIDGE_FORGING_TEMPLATE}) and `honest` (with
 * {@link HONEST_CITY_TEMPLATE}, ground truth Paris).
 */
export async function tamperingBenchmark(options: Partial<BenchmarkOptions> = {}): Promise<Benchmark> {
  const bench = Benchmark.create({ name: "isolation", ...options });
  bench.addQuestion("Hostile question?", "anything", { questionId: "hostile", finished: true });
  bench.addQuestion("What is the capital of France?", "Paris", { questionId: "honest", finished: true });
  await bench.addAnswerTemplate("hostile", BRIDGE_FORGING_TEMPLATE);
  await bench.addAnswerTemplate("honest", HONEST_CITY_TEMPLATE);
  return bench;
}

/** Replies of the models "answerer" and "judge": the honest question is answered wrongly (Rome). */
export const TAMPERING_RUN_SCRIPT: readonly ScriptRule[] = [
  {
    match: { model: "answerer", lastUserIncludes: "Hostile" },
    reply: { text: "HOSTILE-ANSWER" },
    repeat: true,
  },
  { match: { model: "answerer", lastUserIncludes: "France" }, reply: { text: "Rome." }, repeat: true },
  {
    match: { model: "judge", lastUserIncludes: "HOSTILE-ANSWER" },
    reply: { json: { x: "x" } },
    repeat: true,
  },
  { match: { model: "judge", lastUserIncludes: "Rome." }, reply: { json: { city: "Rome" } }, repeat: true },
];
