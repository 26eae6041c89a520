import { useState } from "react";
import {
  FALLBACK_GENERATOR,
  type GenerationProgress,
  GeneratorForm,
  type GeneratorSettings,
  generateSlice,
  useDefaultGenerator,
} from "../generate/index.js";
import { useSessionSlice } from "../session/index.js";

/** Add Question's "Generate template now" choice: on or off, and the generator model with its API key. */
export interface GeneratorChoice {
  readonly enabled: boolean;
  readonly setEnabled: (enabled: boolean) => void;
  readonly settings: GeneratorSettings;
  readonly setSettings: (settings: GeneratorSettings) => void;
  readonly apiKey: string;
  readonly setApiKey: (key: string) => void;
}

/**
 * The generator model starts as tab 1's (Template Generation) choice, else the server's defaults; changing it
 * here does not change tab 1's. The API key stays in this dialog's memory.
 */
export function useGeneratorChoice(): GeneratorChoice {
  const [{ generator: tabOne }] = useSessionSlice(generateSlice);
  const defaults = useDefaultGenerator();
  const [enabled, setEnabled] = useState(false);
  const [chosen, setSettings] = useState<GeneratorSettings | null>(null);
  const [apiKey, setApiKey] = useState("");
  const settings = chosen ?? tabOne ?? defaults ?? FALLBACK_GENERATOR;
  return { enabled, setEnabled, settings, setSettings, apiKey, setApiKey };
}

/** The "Generate template now" checkbox and, when checked, the generator model form. */
export function GenerateNowChoice({ choice }: { readonly choice: GeneratorChoice }) {
  return (
    <div className="curator-generate-now">
      <label className="curator-check">
        <input
          type="checkbox"
          checked={choice.enabled}
          onChange={(event) => choice.setEnabled(event.target.checked)}
        />{" "}
        Generate template now
      </label>
      {choice.enabled ? (
        <GeneratorForm
          settings={choice.settings}
          onChange={choice.setSettings}
          apiKey={choice.apiKey}
          onApiKey={choice.setApiKey}
        />
      ) : (
        <p className="curator-note">
          The question starts unfinished with the placeholder template; edit the template, then flag it
          finished.
        </p>
      )}
    </div>
  );
}

/** The running generation's progress, read out by screen readers. */
export function GenerationProgressLine({ progress }: { readonly progress: GenerationProgress | null }) {
  const label =
    progress === null
      ? "Starting the template generation…"
      : `Generating the template: ${progress.status} (${progress.processed} of ${progress.total})`;
  return (
    <div className="curator-generation" role="status" aria-live="polite">
      <p data-testid="generate-now-progress">{label}</p>
      <progress
        aria-label="Template generation progress"
        max={100}
        value={progress === null ? undefined : progress.percentage}
      />
    </div>
  );
}
