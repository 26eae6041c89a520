import { useEffect, useState } from "react";
import { useRunGuard } from "../curator/index.js";
import type { VerificationConfigInput } from "../library-types/index.js";
import { useSessionSlice } from "../session/index.js";
import { workingBenchmarkSlice } from "../working-benchmark/index.js";
import { withServerDefaults } from "./apply-defaults.js";
import {
  buildVerificationConfig,
  combinationsPerQuestion,
  RunSettingsError,
  replicatesOf,
  runSelectedLabel,
} from "./build-config.js";
import { EvaluationPanel } from "./EvaluationPanel.js";
import { ModelList } from "./ModelList.js";
import { PresetsDialog } from "./PresetsDialog.js";
import { runSettingsSlice } from "./run-settings.js";
import { cardOfModelConfig, evaluationOfConfig } from "./settings-of-config.js";
import { TestSelection } from "./TestSelection.js";
import { useBenchmarkQuestions, useInterfaces, useModelDefaults } from "./use-run-data.js";
import { useVerificationJob } from "./use-verification-job.js";
import { VerificationControl } from "./VerificationControl.js";
import "./run.css";

/** Run configuration and execution (spec 07 §1.5): models, evaluation, selection, start, progress. */
export function RunSection() {
  const [settings, setSettings] = useSessionSlice(runSettingsSlice);
  const [{ benchmark }] = useSessionSlice(workingBenchmarkSlice);
  const { interfaces, providers } = useInterfaces();
  const defaults = useModelDefaults();
  const questionsState = useBenchmarkQuestions(benchmark);
  const job = useVerificationJob();
  const unsavedCuration = useRunGuard();
  const [presetsOpen, setPresetsOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [replicatesText, setReplicatesText] = useState(String(settings.evaluation.replicates));

  useEffect(() => {
    if (defaults !== null) setSettings((current) => withServerDefaults(current, defaults));
  }, [defaults, setSettings]);
  useEffect(
    () => setReplicatesText(String(settings.evaluation.replicates)),
    [settings.evaluation.replicates],
  );

  const questions = questionsState.state === "loaded" ? questionsState.questions : [];
  const finishedIds = new Set(questions.filter((q) => q.finished).map((q) => q.id));
  const selection = settings.selection.filter((id) => finishedIds.has(id));
  const combinations = combinationsPerQuestion(settings);
  const locked = job.active;
  const patch = (next: Partial<typeof settings>) => setSettings((current) => ({ ...current, ...next }));

  const configOrProblem = (questionIds: readonly string[]): VerificationConfigInput | null => {
    try {
      return buildVerificationConfig(settings, interfaces, questionIds);
    } catch (error) {
      if (error instanceof RunSettingsError) {
        setProblem(error.message);
        return null;
      }
      throw error;
    }
  };
  const run = (questionIds: readonly string[]) => {
    setProblem(null);
    job.clearError();
    if (benchmark === null || questionIds.length === 0) return;
    const config = configOrProblem(questionIds);
    if (config !== null)
      unsavedCuration.guard(() => void job.start(benchmark, config, questionIds, settings.runName));
  };
  const applyPreset = (config: VerificationConfigInput) =>
    setSettings((current) => ({
      ...current,
      answering: (config.answering_models ?? []).map((m) => cardOfModelConfig(m, "answering")),
      parsing: config.parsing_models.map((m) => cardOfModelConfig(m, "parsing")),
      evaluation: evaluationOfConfig(config),
    }));
  const shownProblem = problem ?? job.error;

  return (
    <section className="run-section" aria-labelledby="run-heading">
      <div className="run-header">
        <h2 id="run-heading">Run configuration</h2>
        <button
          type="button"
          className="secondary-button"
          disabled={locked}
          onClick={() => setPresetsOpen(true)}
        >
          Manage Presets
        </button>
      </div>
      {benchmark === null ? (
        <p className="notice">
          No benchmark loaded. Open the database bar above and use <strong>Load Benchmark</strong> to pick the
          stored benchmark whose questions you want to verify.
        </p>
      ) : (
        <p className="muted-text">
          Benchmark <strong>{benchmark.name}</strong>
          {benchmark.db === null ? "" : ` (connection ${benchmark.db})`}
          {questionsState.state === "loading" && " — loading its questions…"}
        </p>
      )}
      {questionsState.state === "failed" && <p className="error-box">{questionsState.message}</p>}
      <div className="model-lists">
        {(["answering", "parsing"] as const).map((role) => (
          <ModelList
            key={role}
            role={role}
            cards={settings[role]}
            interfaces={interfaces}
            providers={providers}
            questions={questions}
            disabled={locked}
            onChange={(cards) => patch({ [role]: cards })}
          />
        ))}
      </div>
      <fieldset className="run-fieldset" disabled={locked}>
        <EvaluationPanel evaluation={settings.evaluation} onChange={(evaluation) => patch({ evaluation })} />
        <section className="run-panel" aria-labelledby="management-heading">
          <h3 id="management-heading">Run Management</h3>
          <div className="form-grid">
            <label className="field">
              Run name (optional)
              <input
                value={settings.runName}
                placeholder="Run_YYYYMMDD_HHMMSS"
                onChange={(event) => patch({ runName: event.target.value })}
              />
            </label>
            <label className="field">
              Replicates
              <input
                type="number"
                min={1}
                max={10}
                value={replicatesText}
                onChange={(event) => {
                  setReplicatesText(event.target.value);
                  if (event.target.value !== "")
                    patch({
                      evaluation: { ...settings.evaluation, replicates: replicatesOf(event.target.value) },
                    });
                }}
                onBlur={() => {
                  const replicates = replicatesOf(replicatesText);
                  setReplicatesText(String(replicates));
                  patch({ evaluation: { ...settings.evaluation, replicates } });
                }}
              />
            </label>
          </div>
          <p className="counters">
            <span>Answering models: {settings.answering.length}</span> ·{" "}
            <span>Parsing models: {settings.parsing.length}</span> ·{" "}
            <span>
              Combinations per question: {settings.answering.length} × {settings.parsing.length} ×{" "}
              {settings.evaluation.replicates} = {combinations}
            </span>
          </p>
        </section>
      </fieldset>
      <TestSelection
        questions={questions}
        selection={selection}
        disabled={locked}
        customFewShot={settings.evaluation.fewShot === "custom"}
        fewShotSelections={settings.evaluation.fewShotSelections}
        onFewShotChange={(id, examples) =>
          patch({
            evaluation: {
              ...settings.evaluation,
              fewShotSelections: { ...settings.evaluation.fewShotSelections, [id]: examples },
            },
          })
        }
        onSelectionChange={(next) => patch({ selection: next })}
        onRunSingle={(id) => run([id])}
      />
      {shownProblem !== null && (
        <div className="error-box" role="alert">
          {shownProblem}
        </div>
      )}
      <button
        type="button"
        className="button run-button"
        disabled={locked || benchmark === null || selection.length === 0}
        onClick={() => run(selection)}
      >
        {runSelectedLabel(selection.length, combinations)}
      </button>
      <VerificationControl progress={job.progress} onCancel={() => void job.cancel()} />
      {unsavedCuration.dialog}
      {presetsOpen && (
        <PresetsDialog
          currentConfig={() => configOrProblem(selection)}
          onApply={applyPreset}
          onClose={() => setPresetsOpen(false)}
        />
      )}
    </section>
  );
}
