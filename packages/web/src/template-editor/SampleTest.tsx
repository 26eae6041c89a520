import { type ReactElement, useEffect, useId, useRef, useState } from "react";
import type { BuilderTestRequest, BuilderTestResult, ModelDefaults } from "../library-types/index.js";
import { type TemplateLanguage, testTemplate } from "./builder-api.js";
import { useJudgeChoices } from "./use-server-lists.js";

/** The judge of a sample test, as the compact picker edits it. */
export interface JudgeChoice {
  readonly interface: string;
  readonly provider: string;
  readonly modelName: string;
  readonly endpointBaseUrl: string;
  readonly apiKey: string;
}

interface JudgeTextProps {
  readonly label: string;
  readonly setting: Exclude<keyof JudgeChoice, "interface">;
  readonly judge: JudgeChoice;
  readonly update: (patch: Partial<JudgeChoice>) => void;
  /** A key: masked, never autofilled. */
  readonly secret?: boolean;
}

/** One text setting of the judge picker. */
function JudgeText({ label, setting, judge, update, secret = false }: JudgeTextProps): ReactElement {
  return (
    <label>
      {label}
      <input
        {...(secret ? { type: "password", autoComplete: "off" } : {})}
        value={judge[setting]}
        onChange={(event) => update({ [setting]: event.target.value })}
      />
    </label>
  );
}

// The judge last used, kept for the next question of this page.
let lastJudge: JudgeChoice | null = null;

/** The picker's starting judge: the server's default model (GET /api/v2/config/defaults). */
export function judgeFromDefaults(defaults: ModelDefaults): JudgeChoice {
  return {
    interface: defaults.default_interface,
    provider: defaults.default_provider,
    modelName: defaults.default_model,
    endpointBaseUrl: defaults.default_endpoint_base_url ?? "",
    apiKey: "",
  };
}

/** The parsing model config the test route takes. */
export function judgeModelConfig(judge: JudgeChoice): BuilderTestRequest["parsing_model"] {
  const endpoint = judge.interface === "openai_endpoint";
  return {
    id: judge.modelName,
    model_name: judge.modelName,
    model_provider: judge.provider === "" ? null : judge.provider,
    interface: judge.interface,
    temperature: 0,
    ...(endpoint ? { endpoint_base_url: judge.endpointBaseUrl } : {}),
    ...(endpoint && judge.apiKey !== "" ? { endpoint_api_key: judge.apiKey } : {}),
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function verdictText(result: BuilderTestResult): string {
  if (result.verify_result === true) return "Passed";
  if (result.verify_result === false) return "Failed";
  return "No verdict";
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function TestOutcome({ result }: { readonly result: BuilderTestResult }): ReactElement {
  const failure = result.failure as { category?: string; stage?: string; reason?: string } | null;
  const fields = Object.entries(result.parsed_fields ?? {});
  return (
    <div className="te-test-result" data-testid="sample-test-result">
      <p>
        Verdict:{" "}
        <strong className={result.verify_result === true ? "te-good" : "te-bad"}>
          {verdictText(result)}
        </strong>
        {typeof result.verify_granular === "number" &&
          ` (granular score ${result.verify_granular.toFixed(2)})`}
      </p>
      {fields.length > 0 && (
        <table className="te-table">
          <caption>What the judge extracted</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Extracted</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {fields.map(([name, value]) => {
              const verdict = result.field_results?.[name];
              return (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>
                    <code>{show(value)}</code>
                  </td>
                  <td>{verdict === true ? "correct" : verdict === false ? "wrong" : "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {failure && (
        <p className="te-bad" role="alert">
          {failure.category ?? "error"}
          {failure.stage ? ` at ${failure.stage}` : ""}: {failure.reason ?? ""}
        </p>
      )}
    </div>
  );
}

export interface SampleTestProps {
  readonly code: string;
  readonly language: TemplateLanguage;
  readonly questionText: string;
}

/** "Test with a sample answer" (spec 07 §1.3.6): a judge parses the answer and the template verifies it. */
export function SampleTest(props: SampleTestProps): ReactElement {
  const id = useId();
  const { defaults, interfaces } = useJudgeChoices();
  const [answer, setAnswer] = useState("");
  const [judge, setJudge] = useState<JudgeChoice | null>(lastJudge);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<{ result: BuilderTestResult } | { error: string } | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    if (judge === null && defaults !== null) setJudge(judgeFromDefaults(defaults));
  }, [judge, defaults]);
  useEffect(() => () => abort.current?.abort(), []);

  const update = (patch: Partial<JudgeChoice>) =>
    setJudge((current) => {
      const next = { ...(current ?? judgeFromDefaults(defaults ?? EMPTY_DEFAULTS)), ...patch };
      lastJudge = next;
      return next;
    });

  const run = async () => {
    if (judge === null) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setOutcome(null);
    try {
      const result = await testTemplate(
        {
          code: props.code,
          language: props.language,
          question_text: props.questionText,
          sample_response: answer,
          parsing_model: judgeModelConfig(judge),
        },
        controller.signal,
      );
      if (!controller.signal.aborted) setOutcome({ result });
    } catch (error) {
      if (!controller.signal.aborted) setOutcome({ error: messageOf(error) });
    } finally {
      if (!controller.signal.aborted) setRunning(false);
    }
  };

  const parsingInterfaces = (interfaces?.interfaces ?? []).filter((i) => i.parsing && i.name !== "manual");
  const current = judge ?? (defaults ? judgeFromDefaults(defaults) : null);
  const canRun = current !== null && answer.trim() !== "" && props.code.trim() !== "" && !running;
  return (
    <details className="te-sample-test">
      <summary>Test with a sample answer</summary>
      <div className="te-sample-body">
        <label htmlFor={`${id}-answer`}>Sample answer</label>
        <textarea
          id={`${id}-answer`}
          rows={3}
          value={answer}
          onChange={(event) => setAnswer(event.target.value)}
          placeholder="An answer to the question, as a model might give it"
        />
        {current && (
          <fieldset className="te-judge">
            <legend>Judge model</legend>
            <label>
              Interface
              <select
                value={current.interface}
                onChange={(event) => update({ interface: event.target.value })}
              >
                {[current.interface, ...parsingInterfaces.map((i) => i.name)]
                  .filter((name, index, all) => all.indexOf(name) === index)
                  .map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
              </select>
            </label>
            <JudgeText label="Provider" setting="provider" judge={current} update={update} />
            <JudgeText label="Judge model name" setting="modelName" judge={current} update={update} />
            {current.interface === "openai_endpoint" && (
              <>
                <JudgeText
                  label="Judge endpoint URL"
                  setting="endpointBaseUrl"
                  judge={current}
                  update={update}
                />
                <JudgeText label="Judge API key" setting="apiKey" judge={current} update={update} secret />
              </>
            )}
          </fieldset>
        )}
        <button type="button" className="button" disabled={!canRun} onClick={() => void run()}>
          {running ? "Testing…" : "Run test"}
        </button>
        <div aria-live="polite">
          {running && <p className="te-muted">The judge is reading the answer…</p>}
          {outcome && "result" in outcome && <TestOutcome result={outcome.result} />}
          {outcome && "error" in outcome && (
            <p className="te-bad" role="alert">
              The test could not run: {outcome.error}
            </p>
          )}
        </div>
      </div>
    </details>
  );
}

const EMPTY_DEFAULTS = {
  default_interface: "langchain",
  default_provider: "",
  default_model: "",
} as ModelDefaults;
