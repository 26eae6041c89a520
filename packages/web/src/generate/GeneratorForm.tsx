import { useMemo } from "react";
import { useInterfaces, useModelDefaults } from "../model-registry/index.js";
import type { GeneratorSettings } from "./generate-state.js";

/** Spec 07 §1.2 defaults when the server's defaults are not there. */
export const FALLBACK_GENERATOR: GeneratorSettings = {
  interface: "langchain",
  provider: "anthropic",
  model: "claude-haiku-4-5",
  temperature: 0.1,
  endpointBaseUrl: "",
};

/** The generator settings of the server's defaults (`GET /api/v2/config/defaults`); null until they arrive. */
export function useDefaultGenerator(): GeneratorSettings | null {
  const defaults = useModelDefaults();
  return useMemo(
    () =>
      defaults === null
        ? null
        : {
            interface: defaults.default_interface,
            provider: defaults.default_provider,
            model: defaults.default_model,
            temperature: FALLBACK_GENERATOR.temperature,
            endpointBaseUrl: defaults.default_endpoint_base_url ?? "",
          },
    [defaults],
  );
}

export interface GeneratorFormProps {
  readonly settings: GeneratorSettings;
  readonly onChange: (next: GeneratorSettings) => void;
  readonly apiKey: string;
  readonly onApiKey: (key: string) => void;
}

/** The generator model: interface, provider, model, temperature, and the endpoint for `openai_endpoint`. */
export function GeneratorForm({ settings, onChange, apiKey, onApiKey }: GeneratorFormProps) {
  const { interfaces, providers } = useInterfaces();
  // Generation writes code as a parser model would; manual (pre-recorded answers) cannot write.
  const choices = interfaces.filter(
    (item) => item.parsing && item.name !== "manual" && item.agent_tier !== "deep_agent",
  );
  const names = choices.length > 0 ? choices.map((item) => item.name) : [settings.interface];
  const needsProvider = choices.find((item) => item.name === settings.interface)?.requires_provider ?? false;
  return (
    <fieldset className="generate-model">
      <legend>Generator model</legend>
      <div className="generate-radios" role="radiogroup" aria-label="Interface">
        {names.map((name) => (
          <label key={name}>
            <input
              type="radio"
              name="generator-interface"
              value={name}
              checked={settings.interface === name}
              onChange={() => onChange({ ...settings, interface: name })}
            />
            {name}
          </label>
        ))}
      </div>
      <div className="generate-grid">
        {needsProvider && (
          <label className="generate-field">
            Provider
            <input
              list="generator-providers"
              value={settings.provider}
              onChange={(event) => onChange({ ...settings, provider: event.target.value })}
            />
            <datalist id="generator-providers">
              {providers.map((provider) => (
                <option key={provider} value={provider} />
              ))}
            </datalist>
          </label>
        )}
        <label className="generate-field">
          Model name
          <input
            value={settings.model}
            onChange={(event) => onChange({ ...settings, model: event.target.value })}
          />
        </label>
        <label className="generate-field">
          Temperature
          <input
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={settings.temperature}
            onChange={(event) => onChange({ ...settings, temperature: Number(event.target.value) })}
          />
        </label>
        {settings.interface === "openai_endpoint" && (
          <>
            <label className="generate-field">
              Endpoint URL
              <input
                value={settings.endpointBaseUrl}
                placeholder="http://localhost:8000/v1"
                onChange={(event) => onChange({ ...settings, endpointBaseUrl: event.target.value })}
              />
            </label>
            <label className="generate-field">
              API key
              <input
                type="password"
                value={apiKey}
                autoComplete="off"
                onChange={(event) => onApiKey(event.target.value)}
              />
            </label>
          </>
        )}
      </div>
    </fieldset>
  );
}
