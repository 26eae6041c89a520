import { mergeRubrics, type Rubric, rubricTraits } from "../../model/index.js";
import { canonicalKey, type VerificationResult } from "../../results/index.js";
import { modelIdentity, type VerificationConfig } from "../config/index.js";
import { RunLogWriter } from "../run-log/index.js";
import { resultTaskKey, runVerification } from "../run-verification.js";
import { type PipelineQuestion, taskKey } from "../task.js";
import { ExtendRunError } from "./errors.js";
import { mergeRubricRow } from "./merge-rubric.js";
import {
  checkAnswerersKept,
  checkCommon,
  configuredKeys,
  observedFanOut,
  priorAnswers,
  priorKeys,
  priorQuestionIds,
  resolveRunName,
} from "./prior-run.js";
import type { ExtendedRun, ExtendOptions, ExtendSource } from "./source.js";

const kind = "extendRubric";
const listed = (values: readonly string[]): string => `[${values.join(", ")}]`;

function checkModelsMatch(prior: readonly VerificationResult[], config: VerificationConfig): void {
  if (config.evaluation_mode !== "template_only" && config.evaluation_mode !== "rubric_only")
    throw new ExtendRunError(
      `${kind}: evaluation_mode must be 'template_only' or 'rubric_only' for extendRubric (got '${config.evaluation_mode}'); the run is rubric-only either way`,
    );
  checkAnswerersKept(kind, prior, config);
  const configured = configuredKeys(config, "parsing");
  const observed = priorKeys(prior, "parsing");
  if (configured.join("\n") !== observed.join("\n"))
    throw new ExtendRunError(
      `${kind}: the configured parsing set does not match the parsing identities of the prior run (the new scores are merged onto its rows, one per judge). Configured: ${listed(configured)}. Observed in prior: ${listed(observed)}.`,
    );
  const fanOut = observedFanOut(prior);
  if (fanOut > 0 && config.replicate_count !== fanOut)
    throw new ExtendRunError(
      `${kind}: replicate_count (${config.replicate_count}) must equal the replicate fan-out observed in the prior results (=${fanOut})`,
    );
}

/** The traits the run would score: the global rubric's, then each question's merged rubric's new names. */
function checkRubric(globalRubric: Rubric | null, questions: readonly PipelineQuestion[]): void {
  const traits = new Map(rubricTraits(globalRubric).map((trait) => [trait.name, trait]));
  for (const question of questions)
    for (const trait of rubricTraits(mergeRubrics(globalRubric, question.rubric).rubric))
      if (!traits.has(trait.name)) traits.set(trait.name, trait);
  if (traits.size === 0)
    throw new ExtendRunError(
      `${kind}: no rubric is attached for any prior question (neither a global rubric nor a question rubric); add the traits to score first`,
    );
  const metric = [...traits.values()].filter((trait) => trait.type === "metric").map((trait) => trait.name);
  if (metric.length > 0)
    throw new ExtendRunError(
      `${kind}: metric traits are not supported by extendRubric (${listed(metric.sort())}); remove them from the rubric (they need the template's parsed answer)`,
    );
}

/**
 * Every task key of the rubric-only run that no prior row occupies: they are skipped, so the run only
 * re-reads the prior answers (an extra configured answering model would otherwise be answered live, and its
 * rows thrown away).
 */
function keysOutsidePrior(
  questions: readonly PipelineQuestion[],
  config: VerificationConfig,
  prior: ReadonlySet<string>,
): Set<string> {
  const answerers = config.answering_models.map((m) => canonicalKey(modelIdentity(m, "answering")));
  const parsers = config.parsing_models.map((m) => canonicalKey(modelIdentity(m, "parsing")));
  const count = config.replicate_count;
  const outside = new Set<string>();
  for (const question of questions)
    for (const answerer of answerers)
      for (const parser of parsers)
        for (let r = 1; r <= count; r++) {
          const key = taskKey(question.id, answerer, parser, count === 1 ? null : r);
          if (!prior.has(key)) outside.add(key);
        }
  return outside;
}

function indexRows(rows: readonly VerificationResult[]): Map<string, VerificationResult> {
  const index = new Map<string, VerificationResult>();
  for (const row of rows) {
    const key = resultTaskKey(row);
    if (index.has(key))
      throw new ExtendRunError(
        `extendRubric: rubric-only run produced duplicate rows for triple (${key.replaceAll("\t", ", ")}); shape corruption`,
      );
    index.set(key, row);
  }
  return index;
}

/**
 * Scores new rubric traits on a prior run's answers (spec 04 §17, 08 §10.1): a rubric-only run over the prior
 * tuples, with every answer replayed, whose trait scores are merged onto copies of the prior rows. The config
 * must name the prior run's judges and replicate count exactly (answering models: at least the prior ones)
 * and be `template_only` or `rubric_only` (the run is `rubric_only`). Traits come from the benchmark's rubrics
 * (`rubric_trait_names` selects the new ones when the rubric also holds traits the prior rows already score).
 * The result has as many rows as `prior`, in its order, with the same `result_id`s; `failures` are the
 * rubric-only run's. With `output`, the merged rows are written to that run log once the run is done.
 * @throws {ExtendRunError} before any call when a check of spec 08 §10.1 fails; after the run, on a trait name
 *   already scored in the same bucket, or when the run did not give exactly one row per prior tuple.
 */
export async function extendRubric(
  source: ExtendSource,
  prior: readonly VerificationResult[],
  config: VerificationConfig,
  options: ExtendOptions = {},
): Promise<ExtendedRun> {
  checkCommon(kind, prior, config, options.replay, source.isScenarioBenchmark);
  checkModelsMatch(prior, config);
  const rubricOnly: VerificationConfig = { ...config, evaluation_mode: "rubric_only" };
  const { questionIds, output, resume, ...runOptions } = options;
  if (resume === true)
    throw new ExtendRunError(
      `${kind}: resume is not supported (the merged rows are written when the run is done); run it again: the answers are replayed, only the judge calls repeat`,
    );
  const questions = await source.questions(questionIds ?? priorQuestionIds(prior), rubricOnly);
  checkRubric(source.globalRubric, questions);
  const runName = resolveRunName(kind, prior, options.runName);
  const priorTuples = new Set(prior.map(resultTaskKey));
  const run = await runVerification(questions, rubricOnly, {
    ...runOptions,
    globalRubric: source.globalRubric,
    runName,
    replay: priorAnswers(prior, config.replicate_count),
    skipKeys: keysOutsidePrior(questions, rubricOnly, priorTuples),
  });
  if (run.summary.aborted)
    throw new ExtendRunError(
      `${kind}: the rubric-only run was cancelled before every prior row was scored; nothing was merged`,
    );
  const added = indexRows(run.results);
  const results = prior.map((row) => {
    const key = resultTaskKey(row);
    const fresh = added.get(key);
    if (fresh === undefined)
      throw new ExtendRunError(
        `extendRubric: no rubric-only row produced for prior triple (${key.replaceAll("\t", ", ")}); shape corruption`,
      );
    return mergeRubricRow(row, fresh, runName);
  });
  if (output !== undefined) {
    const writer = await RunLogWriter.open(output);
    try {
      for (const row of results) await writer.append(row);
    } finally {
      await writer.close();
    }
  }
  return { ...run, results, newResults: run.results, runName };
}
