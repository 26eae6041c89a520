import type { AgentMiddlewareConfig } from "../library-types/index.js";
import type { ModelCard } from "./run-settings.js";

/** The library's agent middleware defaults (spec 04 §3), the starting point of the agent settings. */
export const DEFAULT_AGENT_MIDDLEWARE: AgentMiddlewareConfig = {
  limits: { model_call_limit: 25, tool_call_limit: 50, exit_behavior: "end" },
  model_retry: {
    max_retries: 2,
    backoff_factor: 2,
    initial_delay: 2,
    max_delay: 10,
    jitter: true,
    on_failure: "continue",
  },
  tool_retry: { max_retries: 3, backoff_factor: 2, initial_delay: 1, on_failure: "return_message" },
  summarization: {
    enabled: true,
    model: null,
    trigger_fraction: 0.8,
    trigger_tokens: null,
    keep_messages: 20,
  },
  prompt_caching: { enabled: true, ttl: "5m", min_messages_to_cache: 0, unsupported_model_behavior: "warn" },
};

type Section = "limits" | "model_retry" | "tool_retry" | "summarization";

interface NumberField {
  readonly section: Section;
  readonly key: string;
  readonly label: string;
  readonly min: number;
  readonly max?: number;
  readonly step: number;
}

const NUMBER_FIELDS: readonly NumberField[] = [
  { section: "limits", key: "model_call_limit", label: "Model-call limit", min: 1, step: 1 },
  { section: "limits", key: "tool_call_limit", label: "Tool-call limit", min: 1, step: 1 },
  {
    section: "summarization",
    key: "trigger_fraction",
    label: "Trigger fraction",
    min: 0.1,
    max: 0.95,
    step: 0.05,
  },
  { section: "summarization", key: "keep_messages", label: "Messages kept", min: 1, step: 1 },
  { section: "model_retry", key: "max_retries", label: "Model max retries", min: 0, step: 1 },
  { section: "model_retry", key: "backoff_factor", label: "Model backoff", min: 1, step: 0.5 },
  { section: "model_retry", key: "initial_delay", label: "Model initial delay (s)", min: 0, step: 0.5 },
  { section: "model_retry", key: "max_delay", label: "Model max delay (s)", min: 0, step: 0.5 },
  { section: "tool_retry", key: "max_retries", label: "Tool max retries", min: 0, step: 1 },
  { section: "tool_retry", key: "backoff_factor", label: "Tool backoff", min: 1, step: 0.5 },
  { section: "tool_retry", key: "initial_delay", label: "Tool initial delay (s)", min: 0, step: 0.5 },
];

interface ChoiceField {
  readonly section: Section;
  readonly key: string;
  readonly label: string;
  readonly options: readonly string[];
}

const CHOICE_FIELDS: readonly ChoiceField[] = [
  { section: "limits", key: "exit_behavior", label: "On limit", options: ["end", "continue"] },
  { section: "model_retry", key: "on_failure", label: "Model on failure", options: ["continue", "raise"] },
  {
    section: "tool_retry",
    key: "on_failure",
    label: "Tool on failure",
    options: ["return_message", "raise"],
  },
];

function withField(
  config: AgentMiddlewareConfig,
  section: Section,
  key: string,
  value: unknown,
): AgentMiddlewareConfig {
  return { ...config, [section]: { ...config[section], [key]: value } };
}

const read = (config: AgentMiddlewareConfig, section: Section, key: string) =>
  (config[section] as Record<string, unknown>)[key];

/** Agent settings of an answering agent (limits, summarisation, retries) → `agent_middleware`, `max_context_tokens`. */
export function AgentSettings({ card, onChange }: { card: ModelCard; onChange: (card: ModelCard) => void }) {
  const config = card.agentMiddleware ?? DEFAULT_AGENT_MIDDLEWARE;
  const set = (section: Section, key: string, value: unknown) =>
    onChange({ ...card, agentMiddleware: withField(config, section, key, value) });
  return (
    <details className="agent-settings">
      <summary>Agent settings</summary>
      <div className="form-grid">
        <label className="check-label">
          <input
            type="checkbox"
            checked={config.summarization.enabled}
            onChange={(event) => set("summarization", "enabled", event.target.checked)}
          />
          Summarization
        </label>
        <label className="field">
          Max context tokens
          <input
            type="number"
            min={1000}
            step={1000}
            value={card.maxContextTokens ?? ""}
            onChange={(event) =>
              onChange({
                ...card,
                maxContextTokens:
                  event.target.value === "" ? null : Math.max(1000, Number(event.target.value)),
              })
            }
          />
        </label>
        {NUMBER_FIELDS.map((field) => (
          <label key={`${field.section}.${field.key}`} className="field">
            {field.label}
            <input
              type="number"
              min={field.min}
              max={field.max}
              step={field.step}
              value={String(read(config, field.section, field.key))}
              onChange={(event) => set(field.section, field.key, Number(event.target.value))}
            />
          </label>
        ))}
        <label className="check-label">
          <input
            type="checkbox"
            checked={config.model_retry.jitter}
            onChange={(event) => set("model_retry", "jitter", event.target.checked)}
          />
          Jitter
        </label>
        {CHOICE_FIELDS.map((field) => (
          <label key={`${field.section}.${field.key}`} className="field">
            {field.label}
            <select
              value={String(read(config, field.section, field.key))}
              onChange={(event) => set(field.section, field.key, event.target.value)}
            >
              {field.options.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </select>
          </label>
        ))}
      </div>
    </details>
  );
}
