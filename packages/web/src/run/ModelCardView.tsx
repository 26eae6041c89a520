import { useId, useState } from "react";
import type { ModelInterface } from "../library-types/index.js";
import { AgentSettings } from "./AgentSettings.js";
import { isAgentCard, needsProvider } from "./build-config.js";
import type { RunQuestion } from "./checkpoint-questions.js";
import { ExtraArgumentsDialog } from "./ExtraArgumentsDialog.js";
import { ManualTracesPanel } from "./ManualTracesPanel.js";
import { McpDialog } from "./McpDialog.js";
import type { ModelCard, ModelRole } from "./run-settings.js";

export interface ModelCardViewProps {
  readonly card: ModelCard;
  readonly role: ModelRole;
  readonly title: string;
  readonly interfaces: readonly ModelInterface[];
  readonly providers: readonly string[];
  readonly questions: readonly RunQuestion[];
  readonly canRemove: boolean;
  readonly disabled: boolean;
  readonly onChange: (card: ModelCard) => void;
  readonly onRemove: () => void;
}

/** The interfaces a card of `role` may pick (manual answers only), always including the card's own. */
function choices(interfaces: readonly ModelInterface[], role: ModelRole, current: string): string[] {
  const names = interfaces
    .filter((item) => (role === "answering" ? item.answering : item.parsing))
    .map((i) => i.name);
  return names.includes(current) ? names : [current, ...names];
}

/** One answering or parsing model (spec 07 §1.5 "Models"). */
export function ModelCardView(props: ModelCardViewProps) {
  const { card, role, title, interfaces, providers, disabled, onChange } = props;
  const [dialog, setDialog] = useState<"extra" | "mcp" | null>(null);
  const id = useId();
  const set = (patch: Partial<ModelCard>) => onChange({ ...card, ...patch });
  const manual = card.interface === "manual";
  const providerChoices = providers.includes(card.provider) ? providers : [card.provider, ...providers];
  return (
    <fieldset className="model-card" aria-label={title} disabled={disabled}>
      <legend className="model-card-title">{title}</legend>
      <fieldset className="interface-choice">
        <legend>Interface</legend>
        {choices(interfaces, role, card.interface).map((name) => (
          <label key={name} className="radio-label">
            <input
              type="radio"
              name={`${id}-interface`}
              value={name}
              checked={card.interface === name}
              onChange={() => set({ interface: name })}
            />
            {name}
          </label>
        ))}
      </fieldset>
      {needsProvider(card.interface, interfaces) && (
        <label className="field">
          Provider
          <select value={card.provider} onChange={(event) => set({ provider: event.target.value })}>
            {providerChoices.map((provider) => (
              <option key={provider} value={provider}>
                {provider}
              </option>
            ))}
          </select>
        </label>
      )}
      {!manual && (
        <label className="field">
          Model name
          <input value={card.modelName} onChange={(event) => set({ modelName: event.target.value })} />
        </label>
      )}
      {card.interface === "openai_endpoint" && (
        <>
          <label className="field">
            Endpoint URL
            <input
              type="url"
              value={card.endpointBaseUrl}
              placeholder="http://localhost:8000/v1"
              onChange={(event) => set({ endpointBaseUrl: event.target.value })}
            />
          </label>
          <label className="field">
            API key
            <input
              type="password"
              autoComplete="off"
              value={card.endpointApiKey}
              onChange={(event) => set({ endpointApiKey: event.target.value })}
            />
          </label>
        </>
      )}
      {!manual && (
        <label className="field">
          Temperature: {card.temperature.toFixed(1)}
          <input
            type="range"
            min={0}
            max={2}
            step={0.1}
            value={card.temperature}
            onChange={(event) => set({ temperature: Math.round(Number(event.target.value) * 10) / 10 })}
          />
        </label>
      )}
      <details className="system-prompt">
        <summary>System prompt</summary>
        <label className="field">
          <span className="visually-hidden">System prompt of {title}</span>
          <textarea
            rows={4}
            value={card.systemPrompt}
            onChange={(event) => set({ systemPrompt: event.target.value })}
          />
        </label>
      </details>
      {manual && <ManualTracesPanel card={card} questions={props.questions} onChange={onChange} />}
      {role === "answering" && isAgentCard(card, interfaces) && (
        <AgentSettings card={card} onChange={onChange} />
      )}
      <div className="card-actions">
        {!manual && (
          <button type="button" className="secondary-button" onClick={() => setDialog("extra")}>
            Extra Arguments
          </button>
        )}
        {role === "answering" && !manual && (
          <button type="button" className="secondary-button" onClick={() => setDialog("mcp")}>
            Configure MCP{card.mcpServers.length > 0 ? ` (${card.mcpServers.length})` : ""}
          </button>
        )}
        <button
          type="button"
          className="secondary-button"
          disabled={!props.canRemove}
          title={props.canRemove ? undefined : "The last model of a list cannot be removed"}
          onClick={props.onRemove}
        >
          Remove {title}
        </button>
      </div>
      {dialog === "extra" && (
        <ExtraArgumentsDialog card={card} onSave={(patch) => set(patch)} onClose={() => setDialog(null)} />
      )}
      {dialog === "mcp" && (
        <McpDialog card={card} onSave={(patch) => set(patch)} onClose={() => setDialog(null)} />
      )}
    </fieldset>
  );
}
