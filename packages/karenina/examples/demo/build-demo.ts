/**
 * Builds the demo benchmark of `karenina demo` with the library's public API, so it doubles as an authoring
 * example: 14 questions from the medicine cabinet, their answer templates written the three ways the library
 * takes them (Python source, a declarative TemplateSpec, `defineAnswerTemplate` in TypeScript), and a rubric
 * with every trait kind that needs no agent. It writes, next to this file:
 *
 *   demo.jsonld                  the checkpoint (the original Python Karenina reads it too)
 *   demo-answers.replay.json     the answers, in the replay store's format (version 1)
 *
 * Every answer below was WRITTEN BY HAND for the demo; none is the output of a model. Some are wrong, two
 * decline to answer and two are partly right, so the demo's summary shows failures as well as passes.
 *
 *   npm run example:demo          # this script, then record-demo.ts (the judge's replies)
 *   npx tsx packages/karenina/examples/demo/build-demo.ts
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import {
  Benchmark,
  defineAnswerTemplate,
  ReplayStore,
  type RubricTraitInput,
  type TemplateInput,
  type TemplateSpec,
  type TemplateSpecInput,
  TemplateSpecSchema,
  trait,
} from "../../src/index.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const DEMO_CHECKPOINT = join(HERE, "demo.jsonld");
const DEMO_ANSWERS = join(HERE, "demo-answers.replay.json");

/** The answering "model" of the replay file: a name that says the answers were written by hand. */
const DEMO_ANSWERER = "handwritten-demo-answers";

// ── Templates, Python source (run in the Pyodide sandbox, as the original runs them) ─────────────────────

/** A classic template: a plain field, the ground truth in `ground_truth()`, a hand-written `verify()`. */
const ASPIRIN_ENZYME = `from pydantic import Field
from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
    enzyme: str = Field(description="The enzyme the response says aspirin irreversibly inhibits")

    def ground_truth(self):
        self.correct = {"enzyme": "cyclooxygenase"}

    def verify(self) -> bool:
        named = self.enzyme.strip().lower()
        return self.correct["enzyme"] in named or named.startswith("cox")
`;

/** Partial credit: `verify_granular()` scores the share of the four vitamins named. */
const FAT_SOLUBLE_VITAMINS = `from pydantic import Field
from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
    vitamins: list[str] = Field(description="The vitamins the response names as fat-soluble, each as its letter (A, D, E, K, ...)")

    def ground_truth(self):
        self.correct = {"vitamins": ["A", "D", "E", "K"]}

    def verify(self) -> bool:
        return sorted(v.strip().upper() for v in self.vitamins) == self.correct["vitamins"]

    def verify_granular(self) -> float:
        named = {v.strip().upper() for v in self.vitamins}
        return len([v for v in self.correct["vitamins"] if v in named]) / len(self.correct["vitamins"])
`;

/** No fields at all: a regex check on the raw response decides, and no judge is asked to parse. */
const IBUPROFEN_ATC = `from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
    def ground_truth(self):
        self.correct = {}
        self.regex = {
            "atc_code": {"pattern": r"\\b[A-Z]\\d{2}[A-Z]{2}\\d{2}\\b", "expected": "M01AE01", "match_type": "exact"},
        }
`;

/**
 * VerifiedField source: a conditional ground truth (inside a scenario the triage node's age group picks the
 * case; a plain question run takes the default) and a trace primitive checked on the raw response.
 */
const IBUPROFEN_DOSE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ConditionalGroundTruth, GroundTruthCase, NumericMaximum, TraceContains


class Answer(BaseAnswer):
    single_dose_mg: int = VerifiedField(
        description="The largest single adult dose of ibuprofen the response gives, in milligrams",
        ground_truth=ConditionalGroundTruth(
            source="node_results.triage.parsed.age_group",
            cases={"child": GroundTruthCase(value=200)},
            default=GroundTruthCase(value=400),
        ),
        verify_with=NumericMaximum(),
    )
    says_with_food: bool = VerifiedField(
        description="The response says to take it with food",
        ground_truth=True,
        verify_with=TraceContains(substring="with food"),
        default=False,
    )
`;

// ── Templates, declarative (TemplateSpec: stored as VerifiedField Python, evaluated natively) ────────────

/** A TemplateSpec with its defaults filled (`addAnswerTemplate` takes the parsed form). */
const spec = (input: TemplateSpecInput): TemplateSpec => TemplateSpecSchema.parse(input);

const TYLENOL_INGREDIENT = spec({
  fields: [
    {
      name: "ingredient",
      type: "str",
      description: "The active ingredient the response names",
      ground_truth: "paracetamol",
      // Normalised exact match: lower-cased, trimmed, and the US name mapped to the international one.
      verify_with: {
        type: "ExactMatch",
        normalize: ["lowercase", "strip", { mapping: { acetaminophen: "paracetamol", apap: "paracetamol" } }],
      },
    },
  ],
});

const ANTIBIOTICS_COLD = spec({
  fields: [
    {
      name: "helps",
      type: "bool",
      description: "True if the response says antibiotics make a common cold get better faster",
      ground_truth: false,
      verify_with: { type: "BooleanMatch" },
    },
  ],
});

const BODY_TEMPERATURE = spec({
  fields: [
    {
      name: "celsius",
      type: "float",
      description: "The normal body temperature the response gives, in degrees Celsius",
      ground_truth: 37.0,
      verify_with: { type: "NumericTolerance", tolerance: 0.5, mode: "absolute" },
    },
  ],
});

const CAFFEINE_HALF_LIFE = spec({
  fields: [
    {
      name: "hours",
      type: "float",
      description: "The half-life of caffeine the response gives, in hours",
      ground_truth: 5.0,
      // Graded: within 20 % full credit (and a pass); credit falls linearly to 0 at 60 % off.
      verify_with: { type: "NumericGraded", cutoff: 0.6, full_credit: 0.2, mode: "relative", decay: "linear" },
    },
  ],
});

const WHICH_NSAIDS = spec({
  fields: [
    {
      name: "nsaids",
      type: "list_str",
      description: "The drugs the response says are NSAIDs",
      extraction_hint: "lower-case generic names",
      ground_truth: ["aspirin", "ibuprofen", "naproxen"],
      verify_with: { type: "SetContainment", mode: "exact" },
    },
  ],
});

const ASPIRIN_TRADEMARK = spec({
  fields: [
    {
      name: "registered_on",
      type: "date",
      description: "The date the response gives for the registration of the Aspirin trademark",
      extraction_hint: "ISO date, YYYY-MM-DD",
      ground_truth: "1899-03-06",
      verify_with: { type: "DateMatch" },
    },
  ],
});

/** Composition: the answer passes when at least two of the three facts are right. */
const IBUPROFEN_PROFILE = spec({
  fields: [
    {
      name: "drug_class",
      type: "str",
      description: "The drug class the response puts ibuprofen in",
      ground_truth: "NSAID",
      verify_with: {
        type: "ContainsAny",
        substrings: ["nsaid", "non-steroidal", "nonsteroidal"],
        normalize: ["lowercase"],
      },
    },
    {
      name: "enzyme",
      type: "str",
      description: "The enzyme the response says ibuprofen inhibits",
      ground_truth: "cyclooxygenase",
      verify_with: { type: "ContainsAny", substrings: ["cyclooxygenase", "cox"], normalize: ["lowercase"] },
    },
    {
      name: "over_the_counter",
      type: "bool",
      description: "True if the response says ibuprofen can be bought without a prescription",
      ground_truth: true,
      verify_with: { type: "BooleanMatch" },
    },
  ],
  verify_strategy: {
    type: "at_least_n",
    n: 2,
    conditions: ["drug_class", "enzyme", "over_the_counter"].map((name) => ({
      type: "field_check" as const,
      field_name: name,
    })),
  },
});

const PARACETAMOL_TABLETS = spec({
  fields: [
    {
      name: "tablets",
      type: "int",
      description: "The number of 500 mg tablets the response gives as the maximum daily dose",
      ground_truth: 8,
      verify_with: { type: "NumericExact" },
    },
  ],
});

const SCURVY_VITAMIN = spec({
  fields: [
    {
      name: "vitamin",
      type: "literal",
      literal_values: ["A", "B12", "C", "D", "K"],
      description: "The vitamin whose deficiency the response says causes scurvy",
      ground_truth: "C",
      verify_with: { type: "LiteralMatch" },
    },
  ],
});

// ── Template, TypeScript (stored as JavaScript, run in the QuickJS sandbox) ──────────────────────────────

const PARACETAMOL_ANTIDOTE = await defineAnswerTemplate({
  fields: z.object({ antidote: z.string().describe("The antidote the response names") }),
  groundTruth: { antidote: "acetylcysteine" },
  verify: (answer, correct) => answer.antidote.toLowerCase().replace(/[^a-z]/g, "").includes(correct.antidote),
});

// ── Rubric traits ───────────────────────────────────────────────────────────────────────────────────────

/** Applied to every question: an LLM score, a regex, and two callables (boolean and score). */
const GLOBAL_TRAITS: RubricTraitInput[] = [
  trait.llm.score({
    name: "clarity",
    description: "How clear and easy to follow the response is for a reader without medical training.",
  }),
  trait.regex({
    name: "avoids_absolutes",
    description: "True when the response avoids absolute claims such as 'always' or 'never'.",
    pattern: String.raw`(?i)\b(always|never|guaranteed|completely safe)\b`,
    invertResult: true,
  }),
  await trait.callable({
    name: "short_answer",
    description: "True when the response has at most 50 words.",
    kind: "boolean",
    fn: (text) => text.trim().split(/\s+/).length <= 50,
  }),
  await trait.callable({
    name: "sentence_count",
    description: "The number of sentences in the response, capped at 10.",
    kind: "score",
    minScore: 0,
    maxScore: 10,
    higherIsBetter: false,
    fn: (text) => Math.min(10, text.split(/[.!?]+/).filter((sentence) => sentence.trim() !== "").length),
  }),
];

const MISCONCEPTION_HANDLING = trait.llm.literal({
  name: "misconception_handling",
  description: "How the response treats the belief that antibiotics cure colds.",
  classes: {
    reinforces: "Repeats or endorses the misconception.",
    ignores: "Neither endorses nor corrects it.",
    corrects: "Says plainly that antibiotics do not act on the viruses that cause colds.",
  },
});

const VITAMIN_COVERAGE = trait.metric({
  name: "vitamin_coverage",
  description: "Which fat-soluble vitamins the response names, and which wrong ones.",
  metrics: ["precision", "recall", "f1"],
  tpInstructions: ["vitamin A", "vitamin D", "vitamin E", "vitamin K"],
});

const MENTIONS_MAX_DAILY_DOSE = trait.llm.boolean({
  name: "mentions_max_daily_dose",
  description: "The response states a maximum daily dose.",
});

/** A template-kind LLM trait: the judge fills a small structured form, each field a result of its own. */
const DOSING_FACTS: RubricTraitInput = {
  type: "llm",
  name: "dosing_facts",
  description: "The dosing facts the response states.",
  kind: {
    type: "template",
    schema: {
      title: "DosingFacts",
      type: "object",
      properties: {
        dose_mg: { type: "integer", title: "Dose Mg", description: "Largest single dose given, in mg" },
        interval_hours: {
          type: "integer",
          title: "Interval Hours",
          description: "Shortest time between doses, in hours",
        },
        with_food: { type: "boolean", title: "With Food", description: "Says to take it with food" },
      },
      required: ["dose_mg", "interval_hours", "with_food"],
    },
  },
  higher_is_better: null,
};

// ── Questions, each with its hand-written answer ─────────────────────────────────────────────────────────

interface DemoQuestion {
  question: string;
  rawAnswer: string;
  template: TemplateInput;
  /** The template kind it shows, so `karenina results FILE --by keyword` gives a verdict per kind. */
  keywords: string[];
  traits?: RubricTraitInput[];
  /** WRITTEN BY HAND for the demo: what the answering "model" replies. */
  answer: string;
}

const QUESTIONS: DemoQuestion[] = [
  {
    question: "Which enzyme does aspirin irreversibly inhibit?",
    rawAnswer: "Cyclooxygenase (COX-1 and COX-2)",
    template: ASPIRIN_ENZYME,
    keywords: ["python-verify"],
    answer:
      "Aspirin irreversibly inhibits cyclooxygenase (COX-1 and COX-2) by acetylating a serine in its active site, which blocks prostaglandin and thromboxane synthesis.",
  },
  {
    question: "Which four vitamins are fat-soluble?",
    rawAnswer: "Vitamins A, D, E and K",
    template: FAT_SOLUBLE_VITAMINS,
    keywords: ["python-verify-granular"],
    traits: [VITAMIN_COVERAGE],
    // Partly right: C instead of E.
    answer:
      "The fat-soluble vitamins are A, D, K and C. They are stored in the liver and fatty tissue, so large doses can build up.",
  },
  {
    question: "What is the ATC code of ibuprofen?",
    rawAnswer: "M01AE01",
    template: IBUPROFEN_ATC,
    keywords: ["python-regex"],
    answer:
      "Ibuprofen's ATC code is M01AE01: anti-inflammatory and antirheumatic products, propionic acid derivatives.",
  },
  {
    question: "What is the active ingredient of Tylenol?",
    rawAnswer: "Paracetamol (acetaminophen)",
    template: TYLENOL_INGREDIENT,
    keywords: ["exact-match"],
    answer: "Tylenol's active ingredient is acetaminophen, known as paracetamol outside North America.",
  },
  {
    question: "Do antibiotics help a common cold get better faster?",
    rawAnswer: "No: colds are caused by viruses, and antibiotics do not act on viruses.",
    template: ANTIBIOTICS_COLD,
    keywords: ["boolean-match"],
    traits: [MISCONCEPTION_HANDLING],
    // Wrong on purpose.
    answer:
      "Yes. A short course of amoxicillin always clears a cold faster, so it is worth asking your doctor for one.",
  },
  {
    question: "What is the normal human body temperature in degrees Celsius?",
    rawAnswer: "About 37 °C",
    template: BODY_TEMPERATURE,
    keywords: ["numeric-tolerance"],
    answer: "Normal body temperature is about 37 °C (98.6 °F); it varies by roughly half a degree during the day.",
  },
  {
    question: "What is the half-life of caffeine in healthy adults, in hours?",
    rawAnswer: "About 5 hours (3 to 7 hours)",
    template: CAFFEINE_HALF_LIFE,
    keywords: ["numeric-graded"],
    // Partly right: 40 % off, so no pass but half the credit.
    answer: "Caffeine has a half-life of roughly 3 hours in healthy adults.",
  },
  {
    question: "Which of these are NSAIDs: ibuprofen, paracetamol, naproxen, aspirin?",
    rawAnswer: "Ibuprofen, naproxen and aspirin (paracetamol is not an NSAID)",
    template: WHICH_NSAIDS,
    keywords: ["set-containment"],
    answer:
      "Ibuprofen, naproxen and aspirin are NSAIDs. Paracetamol is not: it has little anti-inflammatory effect.",
  },
  {
    question: "On what date did Bayer register Aspirin as a trademark?",
    rawAnswer: "6 March 1899",
    template: ASPIRIN_TRADEMARK,
    keywords: ["date-match"],
    // Wrong on purpose: the date aspirin was first synthesised at Bayer.
    answer: "Bayer registered the Aspirin trademark on 10 August 1897.",
  },
  {
    question:
      "Describe ibuprofen: its drug class, the enzyme it inhibits, and whether it can be bought without a prescription.",
    rawAnswer: "An NSAID that inhibits cyclooxygenase; low doses are sold over the counter.",
    template: IBUPROFEN_PROFILE,
    keywords: ["composition"],
    // Two of three facts right: passes the at-least-2 strategy.
    answer:
      "Ibuprofen is a non-steroidal anti-inflammatory drug (NSAID) that inhibits cyclooxygenase. It is available on prescription only.",
  },
  {
    question: "What is the antidote for a paracetamol (acetaminophen) overdose?",
    rawAnswer: "N-acetylcysteine (NAC)",
    template: PARACETAMOL_ANTIDOTE,
    keywords: ["typescript-template"],
    answer: "The antidote is N-acetylcysteine (NAC), best given within 8 hours of the overdose.",
  },
  {
    question: "How many 500 mg paracetamol tablets make up the maximum daily dose for a healthy adult?",
    rawAnswer: "8 tablets (4 g a day)",
    template: PARACETAMOL_TABLETS,
    keywords: ["numeric-exact"],
    // Abstains.
    answer: "I'm sorry, but I can't give dosing advice. Please read the leaflet or ask a pharmacist.",
  },
  {
    question: "Deficiency of which vitamin causes scurvy?",
    rawAnswer: "Vitamin C",
    template: SCURVY_VITAMIN,
    keywords: ["literal-match"],
    // Abstains.
    answer: "I don't have access to medical references at the moment, so I cannot answer that reliably.",
  },
  {
    question: "What is the usual single adult dose of ibuprofen for pain, and how should it be taken?",
    rawAnswer: "200 to 400 mg every 4 to 6 hours with food; at most 1,200 mg a day without medical advice",
    template: IBUPROFEN_DOSE,
    keywords: ["conditional-ground-truth", "trace-primitive"],
    traits: [MENTIONS_MAX_DAILY_DOSE, DOSING_FACTS],
    answer:
      "The usual adult dose is 200 to 400 mg every 4 to 6 hours, taken with food or milk. Do not take more than 1,200 mg in a day unless a doctor advises it.",
  },
];

// ── Build ───────────────────────────────────────────────────────────────────────────────────────────────

const benchmark = Benchmark.create({
  name: "Medicine cabinet (karenina demo)",
  description:
    "Everyday pharmacology questions covering every answer-template kind and every rubric trait kind that needs no agent. Bundled with karenina for `karenina demo`.",
  version: "1.0.0",
  creator: "karenina demo",
});
benchmark.setGlobalRubric(GLOBAL_TRAITS);

const answers = new ReplayStore({ missPolicy: "strict" });
for (const q of QUESTIONS) {
  const id = benchmark.addQuestion(q.question, q.rawAnswer, { keywords: q.keywords });
  // addAnswerTemplate validates the template in its sandbox before storing it.
  await benchmark.addAnswerTemplate(id, q.template);
  for (const questionTrait of q.traits ?? []) benchmark.addQuestionRubricTrait(id, questionTrait);
  answers.register({ question_id: id }, { raw_trace: q.answer, captured_model_id: DEMO_ANSWERER });
}

const readiness = await benchmark.checkReadiness();
if (!readiness.ready_for_verification) {
  throw new Error(`the demo benchmark is not ready: ${JSON.stringify(readiness, null, 2)}`);
}

await mkdir(HERE, { recursive: true });
await benchmark.save(DEMO_CHECKPOINT);
const note =
  "Every answer in this file was WRITTEN BY HAND for the karenina demo (examples/demo/build-demo.ts). " +
  "None is the output of a language model. Some are wrong, two decline to answer and two are partly right on purpose.";
await writeFile(
  DEMO_ANSWERS,
  `${JSON.stringify({ note, answering_model: DEMO_ANSWERER, ...JSON.parse(answers.serialize()) }, null, 2)}\n`,
);
console.log(`wrote ${DEMO_CHECKPOINT} (${benchmark.size} questions) and ${DEMO_ANSWERS}`);
