import { useState } from "react";
import { ApiRequestError, authHeaders, errorOf } from "../api/index.js";
import type { ManualTraceSet } from "../library-types/index.js";
import type { RunQuestion } from "./checkpoint-questions.js";
import {
  manualTraceProblems,
  questionsWithoutTrace,
  traceCsvMapper,
  traceTemplate,
} from "./manual-traces.js";
import type { ModelCard } from "./run-settings.js";

/** Offers `text` as a file download. */
export function downloadText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function uploadTraces(file: File): Promise<ManualTraceSet> {
  const form = new FormData();
  form.append("file", file, file.name);
  const response = await fetch("/api/v2/traces", { method: "POST", headers: authHeaders(), body: form });
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as ManualTraceSet;
}

export interface ManualTracesPanelProps {
  readonly card: ModelCard;
  readonly questions: readonly RunQuestion[];
  readonly onChange: (card: ModelCard) => void;
}

/**
 * The manual interface's traces (spec 07 §1.5): a JSON file `{md5(question text): trace}` checked here, then
 * by the server (`POST /api/v2/traces`); a template and a hash → question CSV mapper to download.
 */
export function ManualTracesPanel({ card, questions, onChange }: ManualTracesPanelProps) {
  const [problems, setProblems] = useState<readonly string[]>([]);
  const [busy, setBusy] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (file === undefined) return;
    const text = await file.text();
    const found = manualTraceProblems(text, file.size);
    setProblems(found);
    if (found.length > 0) return;
    setBusy(true);
    try {
      const stored = await uploadTraces(file);
      onChange({
        ...card,
        manualTraces: JSON.parse(text) as Record<string, unknown>,
        manualTracesLabel: `${file.name}: ${stored.trace_count} traces`,
      });
    } catch (error) {
      setProblems([error instanceof ApiRequestError ? error.message : String(error)]);
    } finally {
      setBusy(false);
    }
  };
  const missing = card.manualTraces === null ? [] : questionsWithoutTrace(questions, card.manualTraces);
  return (
    <div className="manual-traces">
      <label className="field">
        Manual traces (JSON)
        <input
          type="file"
          accept=".json,application/json"
          disabled={busy}
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
      </label>
      {card.manualTracesLabel !== null && <p className="muted-text">Loaded {card.manualTracesLabel}</p>}
      {missing.length > 0 && (
        <p className="warning-text">{missing.length} finished questions have no trace in this file.</p>
      )}
      {problems.map((problem) => (
        <p key={problem} className="error-text" role="alert">
          {problem}
        </p>
      ))}
      <div className="card-actions">
        <button
          type="button"
          className="secondary-button"
          onClick={() =>
            downloadText("manual-traces-template.json", traceTemplate(questions), "application/json")
          }
        >
          Download template
        </button>
        <button
          type="button"
          className="secondary-button"
          onClick={() => downloadText("manual-traces-mapper.csv", traceCsvMapper(questions), "text/csv")}
        >
          Download CSV mapper
        </button>
      </div>
    </div>
  );
}
