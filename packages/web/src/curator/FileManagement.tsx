import { type ChangeEvent, useRef, useState } from "react";
import { ApiRequestError, apiFetch, queryString, withTokenQuery } from "../api/index.js";
import { BenchmarksPanel, ConfirmDialog, dbLabel, dbQuery } from "../database/index.js";
import { Dialog } from "../dialog/index.js";
import type { CheckpointImported, CheckpointImportRequest } from "../library-types/index.js";
import { useAnnounce } from "../status/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import { benchmarkPath } from "./curation-api.js";
import type { CurationState, MetadataChanges } from "./curation-store.js";
import { CreateBenchmarkDialog, DatasetMetadataDialog } from "./DatasetDialogs.js";
import { DialogButtons, problemOf, TextField } from "./form-parts.js";
import { clockTime } from "./use-curation.js";

/** What the upload said: the counts shown under the buttons. */
export function importSummary(imported: CheckpointImported): string {
  return `Loaded "${imported.name}": ${imported.question_count} questions, ${imported.finished_count} finished, ${imported.with_template_count} with templates${imported.has_global_rubric ? ", a global rubric" : ""}.`;
}

/** The readiness line (spec 07 §1.3.1 "Our decision"): what a run would take, from the loaded questions. */
export function readinessOf(curation: CurationState): string {
  const total = curation.questions.length;
  if (total === 0) return "Not ready: the benchmark has no questions.";
  const finished = curation.questions.filter((q) => q.finished);
  const placeholders = finished.filter((q) => !q.has_template).length;
  const problems = [
    ...(finished.length === 0 ? ["no question is finished"] : []),
    ...(placeholders > 0 ? [`${placeholders} finished question(s) still have the placeholder template`] : []),
  ];
  return problems.length === 0
    ? `Ready: ${finished.length} of ${total} questions finished, all with templates.`
    : `Not ready: ${problems.join("; ")}.`;
}

interface Conflict {
  readonly request: CheckpointImportRequest;
  readonly name: string;
}

function UploadConflictDialog({
  conflict,
  onResolve,
  onClose,
}: {
  readonly conflict: Conflict;
  readonly onResolve: (request: CheckpointImportRequest) => void;
  readonly onClose: () => void;
}) {
  const [otherName, setOtherName] = useState(`${conflict.name} (copy)`);
  const [error, setError] = useState<string>();
  return (
    <Dialog
      title="A benchmark of this name exists"
      onClose={onClose}
      footer={
        <DialogButtons
          onCancel={onClose}
          alternative={{
            label: "Store under the other name",
            onClick: () => {
              if (otherName.trim() === "") return setError("Give the benchmark a name.");
              onResolve({ ...conflict.request, name: otherName.trim(), replace: false });
            },
          }}
          onConfirm={() => onResolve({ ...conflict.request, replace: true })}
          confirmLabel="Replace the stored one"
          danger
        />
      }
    >
      <p>
        The database already holds a benchmark named <strong>{conflict.name}</strong>. Replace it with the
        uploaded checkpoint, or store the upload under another name.
      </p>
      <TextField label="Other name" value={otherName} onChange={setOtherName} error={error} />
    </Dialog>
  );
}

export interface FileManagementProps {
  readonly db: string | null;
  readonly benchmark: WorkingBenchmark | null;
  readonly curation: CurationState | null;
  readonly onWorkingChange: (benchmark: WorkingBenchmark | null) => void;
  readonly onMetadataChange: (changes: MetadataChanges) => void;
  /** "Reset All Data": unloads the benchmark from the page and drops its drafts. */
  readonly onReset: () => void;
}

type Open = "load" | "create" | "metadata" | "reset" | null;

/** The File Management card (spec 07 §1.3.1): checkpointing, database, actions and counters. */
export function FileManagement({
  db,
  benchmark,
  curation,
  onWorkingChange,
  onMetadataChange,
  onReset,
}: FileManagementProps) {
  const announce = useAnnounce();
  const fileInput = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState<Open>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [uploaded, setUploaded] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const questionCount = curation?.questions.length ?? 0;
  const finishedCount = curation?.questions.filter((q) => q.finished).length ?? 0;

  const importCheckpoint = async (request: CheckpointImportRequest) => {
    setConflict(null);
    try {
      const imported = await apiFetch<CheckpointImported>(
        `/api/v2/benchmarks/imports${queryString({ db: dbQuery(db) })}`,
        { body: request },
      );
      const summary = importSummary(imported);
      setUploaded(summary);
      setProblem(undefined);
      announce(summary);
      onWorkingChange({ db, name: imported.name });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 409) {
        const name =
          (request.name ?? /"name"\s*:\s*"([^"]*)"/.exec(request.content)?.[1]) || request.file_name;
        setConflict({ request, name });
      } else setProblem(`${request.file_name} was not loaded: ${problemOf(error)}`);
    }
  };
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file === undefined) return;
    await importCheckpoint({ file_name: file.name, content: await file.text() });
  };

  return (
    <section className="curator-card" aria-labelledby="file-management-heading">
      <h3 id="file-management-heading">File Management</h3>
      <div className="curator-card-grid">
        <section aria-labelledby="checkpointing-heading">
          <h4 id="checkpointing-heading">Checkpointing</h4>
          <input
            ref={fileInput}
            type="file"
            accept=".json,.jsonld,application/json,application/ld+json"
            className="visually-hidden"
            aria-label="Checkpoint file"
            tabIndex={-1}
            onChange={(event) => void onFile(event)}
          />
          <div className="curator-buttons">
            <button type="button" className="button" onClick={() => fileInput.current?.click()}>
              Upload Checkpoint
            </button>
            {benchmark === null || questionCount === 0 ? (
              <button
                type="button"
                className="secondary-button"
                disabled
                title="Load or create a benchmark with questions first"
              >
                Download Checkpoint
              </button>
            ) : (
              <a
                className="secondary-button"
                href={withTokenQuery(benchmarkPath(benchmark, "/checkpoint"))}
                download
                onClick={() => announce("Downloading the checkpoint")}
              >
                Download Checkpoint
              </a>
            )}
          </div>
          {uploaded === undefined ? null : (
            <p className="curator-note" data-testid="upload-result">
              {uploaded}
            </p>
          )}
          {problem === undefined ? null : (
            <p className="curator-error" role="alert">
              {problem}
            </p>
          )}
        </section>
        <section aria-labelledby="database-heading">
          <h4 id="database-heading">Database</h4>
          <p data-testid="curator-db-status">
            {benchmark === null ? (
              `Not connected to a benchmark (${dbLabel(db)})`
            ) : (
              <>
                Connected to {dbLabel(benchmark.db)} · benchmark <strong>{benchmark.name}</strong>
                {curation?.save.state === "saved" ? ` · Last saved: ${clockTime(curation.save.at)}` : ""}
              </>
            )}
          </p>
          <button type="button" className="secondary-button" onClick={() => setOpen("load")}>
            Load from Database
          </button>
        </section>
        <section aria-labelledby="actions-heading">
          <h4 id="actions-heading">Actions</h4>
          <div className="curator-buttons">
            {(
              [
                ["Create New Benchmark", "create", false],
                ["Dataset Metadata", "metadata", curation === null],
                ["Reset All Data", "reset", benchmark === null],
              ] as const
            ).map(([label, which, disabled]) => (
              <button
                key={which}
                type="button"
                className="secondary-button"
                disabled={disabled}
                onClick={() => setOpen(which)}
              >
                {label}
              </button>
            ))}
          </div>
        </section>
      </div>
      <dl className="curator-counters">
        <div>
          <dt>Questions Loaded</dt>
          <dd data-testid="questions-loaded">{questionCount}</dd>
        </div>
        <div>
          <dt>Finished Items</dt>
          <dd data-testid="finished-items">{finishedCount}</dd>
        </div>
      </dl>
      {curation === null ? null : (
        <p className="curator-note" data-testid="readiness">
          {readinessOf(curation)}
        </p>
      )}
      {open === "load" ? (
        <Dialog title="Load from Database" onClose={() => setOpen(null)}>
          <BenchmarksPanel
            db={db}
            working={benchmark}
            onLoad={(next) => {
              onWorkingChange(next);
              setOpen(null);
            }}
          />
        </Dialog>
      ) : null}
      {open === "create" ? (
        <CreateBenchmarkDialog
          db={db}
          replacing={benchmark !== null}
          onClose={() => setOpen(null)}
          onCreated={(next) => {
            setOpen(null);
            setUploaded(undefined);
            announce(`Created benchmark ${next.name}`);
            onWorkingChange(next);
          }}
        />
      ) : null}
      {open === "metadata" && curation !== null ? (
        <DatasetMetadataDialog
          metadata={curation.metadata}
          onSave={onMetadataChange}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open === "reset" ? (
        <ConfirmDialog
          title="Reset All Data"
          confirmLabel="Reset"
          onCancel={() => setOpen(null)}
          onConfirm={() => {
            setOpen(null);
            setUploaded(undefined);
            onReset();
          }}
        >
          <p>
            This unloads the benchmark from the page and discards its unsaved drafts. The benchmark stays
            stored in the database: load it again with "Load from Database".
          </p>
        </ConfirmDialog>
      ) : null}
      {conflict === null ? null : (
        <UploadConflictDialog
          conflict={conflict}
          onClose={() => setConflict(null)}
          onResolve={(request) => void importCheckpoint(request)}
        />
      )}
    </section>
  );
}
