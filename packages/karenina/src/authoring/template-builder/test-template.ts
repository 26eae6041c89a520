import { KareninaError } from "../../errors/index.js";
import { questionHash } from "../../llm/index.js";
import {
  type ModelConfigInput,
  type PipelineQuestion,
  parseVerificationConfig,
  runVerification,
} from "../../pipeline/index.js";
import type { Failure } from "../../results/index.js";
import type { PythonSandbox } from "../../sandbox/index.js";
import type { TemplateCode } from "../../templates/index.js";

/** A template test could not produce a result (cancelled, or the task failed outside its stages). */
export class TemplateTestError extends KareninaError {
  override readonly name = "TemplateTestError";
}

/** What {@link testTemplate} checks: a template, a sample answer to it, and the judge that parses the answer. */
export interface TemplateTestInput {
  template: TemplateCode;
  questionText: string;
  /** The answer to parse, as the answering model would have given it. */
  sampleResponse: string;
  /** The parsing (judge) model (spec 04 §2). */
  parsingModel: ModelConfigInput;
  /** Where Python templates run (their trust domain); default a sandbox of the run's own. */
  pythonSandbox?: PythonSandbox;
  signal?: AbortSignal;
}

/** What the judge extracted from the sample answer and what the template made of it. */
export interface TemplateTestOutcome {
  /** The fields the judge extracted, or null when parsing did not happen. */
  parsed_fields: Record<string, unknown> | null;
  verify_result: boolean | null;
  verify_granular: unknown;
  /** Per VerifiedField result; null for classic templates. */
  field_results: Record<string, boolean | null> | null;
  /** Why the test did not verify (invalid template, judge error, …), or null. */
  failure: Failure | null;
}

/**
 * The builder's "Test with sample answer" (spec 02 §9.5, spec 07 §1.3.6): runs the real pipeline on one
 * question whose answer is `sampleResponse` (a manual trace, so no answering model is called), parsing it with
 * `parsingModel` and verifying it with the template, exactly as a verification would.
 */
export async function testTemplate(input: TemplateTestInput): Promise<TemplateTestOutcome> {
  const question: PipelineQuestion = {
    id: "template-test",
    text: input.questionText,
    rawAnswer: null,
    template: input.template,
    keywords: null,
    fewShotExamples: [],
    rubric: null,
    dynamicRubric: null,
    workspacePath: null,
  };
  const config = parseVerificationConfig({
    answering_models: [
      {
        id: "sample-answer",
        interface: "manual",
        manual_traces: { [questionHash(input.questionText)]: input.sampleResponse },
      },
    ],
    parsing_models: [input.parsingModel],
    evaluation_mode: "template_only",
    replicate_count: 1,
  });
  const run = await runVerification([question], config, {
    runName: "template-test",
    ...(input.pythonSandbox === undefined ? {} : { pythonSandbox: input.pythonSandbox }),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  const result = run.results[0];
  if (result === undefined) {
    const error = run.failures[0]?.error;
    throw new TemplateTestError(
      run.summary.aborted
        ? "the template test was cancelled"
        : `the template test gave no result: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const template = result.template;
  return {
    parsed_fields: template?.parsed_llm_response ?? null,
    verify_result: template?.verify_result ?? null,
    verify_granular: template?.verify_granular_result ?? null,
    field_results: template?.field_results ?? null,
    failure: result.metadata.failure,
  };
}
