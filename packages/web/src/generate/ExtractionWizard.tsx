import { type DragEvent, useId, useRef, useState } from "react";
import type { FilePreview } from "../library-types/index.js";
import { useSessionSlice } from "../session/index.js";
import { useAnnounce } from "../status/index.js";
import { guessColumns } from "./auto-mapping.js";
import { ErrorBox } from "./ErrorBox.js";
import { ALLOWED_EXTENSIONS, formatBytes, uploadProblem } from "./file-checks.js";
import { deleteUpload, extractQuestions, previewSpreadsheet, uploadSpreadsheet } from "./generate-api.js";
import {
  EMPTY_MAPPING,
  extractBlocker,
  extractionRequest,
  generateSlice,
  INITIAL_GENERATE_STATE,
  type MappingDraft,
} from "./generate-state.js";
import { MappingForm } from "./MappingForm.js";
import { VirtualList } from "./VirtualList.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function mappingFor(preview: FilePreview): MappingDraft {
  const guessed = guessColumns(preview.columns);
  return { ...EMPTY_MAPPING, question: guessed.question ?? "", answer: guessed.answer ?? "" };
}

/** Why the preview cannot be extracted from (no rows), or null. */
function previewProblem(preview: FilePreview | null, uploaded: boolean): string | null {
  if (preview === null)
    return uploaded ? "The file could not be read: upload another one." : "Upload a spreadsheet first.";
  if (preview.columns.length === 0 || preview.total_rows === 0)
    return `"${preview.filename}" has no data rows: add a header row and at least one question.`;
  return null;
}

/** "1. Question Extraction": upload → preview/configure → extracted list (spec 07 §1.1). */
export function ExtractionWizard() {
  const [state, setState] = useSessionSlice(generateSlice);
  const announce = useAnnounce();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"uploading" | "previewing" | "extracting" | null>(null);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const showPreview = async (fileId: string, sheet: string | null) => {
    setBusy("previewing");
    try {
      const preview = await previewSpreadsheet(fileId, sheet);
      setState((current) => ({ ...current, step: "configure", preview, mapping: mappingFor(preview) }));
      const problem = previewProblem(preview, true);
      if (problem !== null) setError(problem);
    } catch (cause) {
      setState((current) => ({ ...current, step: "configure", preview: null }));
      setError(messageOf(cause));
    } finally {
      setBusy(null);
    }
  };

  const receive = async (file: File | undefined) => {
    if (file === undefined) return;
    setError(null);
    const problem = uploadProblem(file);
    if (problem !== null) {
      setError(problem);
      return;
    }
    setBusy("uploading");
    try {
      const upload = await uploadSpreadsheet(file);
      setState((current) => ({ ...current, upload, preview: null, mapping: EMPTY_MAPPING }));
      await showPreview(upload.file_id, null);
    } catch (cause) {
      setBusy(null);
      setError(messageOf(cause) || "Failed to upload file. Please try again.");
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void receive(event.dataTransfer.files[0]);
  };

  const extract = async () => {
    if (state.upload === null) return;
    setBusy("extracting");
    setError(null);
    try {
      const result = await extractQuestions(
        state.upload.file_id,
        extractionRequest(state.mapping, state.preview?.sheet ?? null),
      );
      if (result.questions_count === 0) {
        setError("No questions found: every row's question or answer is empty.");
        return;
      }
      const fileId = state.upload.file_id;
      setState((current) => ({
        ...current,
        step: "done",
        questions: result.questions,
        warnings: result.warnings,
        selection: null,
      }));
      announce(`Successfully extracted ${result.questions_count} questions`);
      // Spec 07 §1.1 Fix: the upload is not needed once its questions are out.
      void deleteUpload(fileId).catch(() => undefined);
    } catch (cause) {
      setError(messageOf(cause));
    } finally {
      setBusy(null);
    }
  };

  const startOver = () => {
    setError(null);
    if (state.upload !== null && state.step !== "done")
      void deleteUpload(state.upload.file_id).catch(() => undefined);
    setState((current) => ({ ...INITIAL_GENERATE_STATE, generator: current.generator }));
  };

  const blocker = previewProblem(state.preview, state.upload !== null) ?? extractBlocker(state.mapping);
  const preview = state.preview;

  return (
    <section className="generate-card" aria-labelledby="extraction-heading">
      <h2 id="extraction-heading">1. Question Extraction</h2>
      <ol className="generate-steps" aria-label="Extraction steps">
        {(["upload", "configure", "done"] as const).map((step, index) => (
          <li key={step} aria-current={state.step === step ? "step" : undefined}>
            {index + 1}.{" "}
            {step === "upload" ? "Upload" : step === "configure" ? "Preview & configure" : "Questions"}
          </li>
        ))}
      </ol>
      {error !== null && <ErrorBox message={error} onDismiss={() => setError(null)} />}

      {state.step === "upload" && (
        // biome-ignore lint/a11y/noStaticElementInteractions: dropping is the mouse path; "Select File" is the keyboard one.
        <div
          className={`generate-dropzone${dragging ? " dragging" : ""}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <p>Drop a spreadsheet here, or</p>
          <input
            ref={picker}
            id="file-upload"
            type="file"
            hidden
            accept={ALLOWED_EXTENSIONS.join(",")}
            onChange={(event) => {
              void receive(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
          <button
            type="button"
            className="primary-button"
            onClick={() => picker.current?.click()}
            disabled={busy !== null}
          >
            Select File
          </button>
          <p className="generate-muted">
            {ALLOWED_EXTENSIONS.join(" ")} — 50 MB at most
            {busy === "uploading" && " — Uploading…"}
            {busy === "previewing" && " — Reading…"}
          </p>
        </div>
      )}

      {state.step === "configure" && state.upload !== null && (
        <div className="generate-configure">
          <dl className="generate-facts">
            <div>
              <dt>File</dt>
              <dd>{state.upload.filename}</dd>
            </div>
            <div>
              <dt>Size</dt>
              <dd>{formatBytes(state.upload.size)}</dd>
            </div>
            <div>
              <dt>Total rows</dt>
              <dd>{preview?.total_rows ?? "—"}</dd>
            </div>
          </dl>
          {preview?.sheets != null && preview.sheets.length > 0 && (
            <label className="generate-field">
              Sheet
              <select
                value={preview.sheet ?? ""}
                onChange={(event) =>
                  state.upload && void showPreview(state.upload.file_id, event.target.value)
                }
              >
                {preview.sheets.map((sheet) => (
                  <option key={sheet} value={sheet}>
                    {sheet}
                  </option>
                ))}
              </select>
            </label>
          )}
          {preview !== null && preview.columns.length > 0 && (
            <>
              <PreviewTable preview={preview} />
              <MappingForm
                columns={preview.columns}
                rows={preview.data}
                mapping={state.mapping}
                onChange={(mapping) => setState((current) => ({ ...current, mapping }))}
              />
            </>
          )}
        </div>
      )}

      {state.step !== "done" && (
        <div className="generate-actions">
          <button
            type="button"
            className="primary-button"
            disabled={blocker !== null || busy !== null}
            aria-describedby={hintId}
            onClick={() => void extract()}
          >
            {busy === "extracting" ? "Extracting…" : "Extract Questions"}
          </button>
          <span id={hintId} className="generate-muted">
            {blocker ?? "Ready to extract"}
          </span>
          {state.step === "configure" && (
            <button type="button" className="secondary-button" onClick={startOver}>
              Start Over
            </button>
          )}
        </div>
      )}

      {state.step === "done" && (
        <div>
          <p className="generate-success">Successfully extracted {state.questions.length} questions</p>
          {state.warnings.length > 0 && (
            <ul className="generate-warnings" aria-label="Extraction warnings">
              {state.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          )}
          <VirtualList
            items={state.questions}
            label="Extracted questions"
            rowHeight={56}
            keyOf={(question) => question.id}
            renderItem={(question, index) => (
              <div className="generate-question-row">
                <strong>
                  {index + 1}. {question.question}
                </strong>
                <span className="generate-muted">{question.raw_answer}</span>
              </div>
            )}
          />
          <div className="generate-actions">
            <button
              type="button"
              className="secondary-button"
              disabled={state.jobId !== null}
              title={state.jobId === null ? undefined : "Cancel or wait for the generation job first"}
              onClick={startOver}
            >
              Start Over
            </button>
            <span className="generate-muted">↓ Extracted questions automatically available below ↓</span>
          </div>
        </div>
      )}
    </section>
  );
}

function PreviewTable({ preview }: { readonly preview: FilePreview }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it.
    <section className="generate-preview" tabIndex={0} aria-label="File preview">
      <table>
        <caption>
          First {preview.preview_rows} of {preview.total_rows} rows
        </caption>
        <thead>
          <tr>
            {preview.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.data.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no id and never move.
            <tr key={index}>
              {preview.columns.map((column) => (
                <td key={column}>{row[column] ?? ""}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
