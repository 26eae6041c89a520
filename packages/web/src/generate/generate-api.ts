import { ApiRequestError, apiFetch, authHeaders, errorOf, queryString } from "../api/index.js";
import type {
  Curation,
  CurationChanges,
  CurationSaved,
  FilePreview,
  FileQuestions,
  JobStreamEvent,
  QuestionExtractionRequest,
  StartedTemplateGeneration,
  StartTemplateGenerationRequest,
  TemplateGenerationJob,
  UploadedFile,
} from "../library-types/index.js";
import { followEventStream } from "../progress-events/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import { isEndedStatus } from "./generation-progress.js";

const GENERATION = "/api/v2/templates/generation";

/**
 * Uploads a spreadsheet as multipart form data (the one call `apiFetch` cannot make: its body is not JSON);
 * errors come back as the same {@link ApiRequestError}.
 */
export async function uploadSpreadsheet(file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.append("file", file, file.name);
  let response: Response;
  try {
    response = await fetch("/api/v2/files", { method: "POST", headers: authHeaders(), body: form });
  } catch {
    throw new ApiRequestError(0, "unreachable", "Failed to upload file. Please try again.");
  }
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as UploadedFile;
}

export const previewSpreadsheet = (fileId: string, sheet: string | null) =>
  apiFetch<FilePreview>(
    `/api/v2/files/${encodeURIComponent(fileId)}/preview${queryString({ sheet_name: sheet })}`,
  );

export const extractQuestions = (fileId: string, request: QuestionExtractionRequest) =>
  apiFetch<FileQuestions>(`/api/v2/files/${encodeURIComponent(fileId)}/questions`, { body: request });

export const deleteUpload = (fileId: string) =>
  apiFetch<unknown>(`/api/v2/files/${encodeURIComponent(fileId)}`, { method: "DELETE" });

export const startGeneration = (request: StartTemplateGenerationRequest) =>
  apiFetch<StartedTemplateGeneration>(GENERATION, { body: request });

export const generationJob = (jobId: string) =>
  apiFetch<TemplateGenerationJob>(`${GENERATION}/${encodeURIComponent(jobId)}/progress`);

export const cancelGeneration = (jobId: string) =>
  apiFetch<TemplateGenerationJob>(`${GENERATION}/${encodeURIComponent(jobId)}`, { method: "DELETE" });

export const resumeGeneration = (jobId: string) =>
  apiFetch<TemplateGenerationJob>(`${GENERATION}/${encodeURIComponent(jobId)}/resume`, { method: "POST" });

/**
 * Follows a generation job over Server-Sent Events from its first event (a reloaded page rebuilds its rows),
 * calling `onEnd` once when the job ends or the stream closes. Returns the function that stops.
 */
export function followGeneration(
  jobId: string,
  onEvent: (event: JobStreamEvent) => void,
  onEnd: () => void,
): () => void {
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    stop();
    onEnd();
  };
  const stop = followEventStream(`${GENERATION}/${encodeURIComponent(jobId)}/events?after=0`, {
    onEvent: (event) => {
      onEvent(event);
      // A job a server restart left interrupted sends no end event: its stream replays and closes, and
      // EventSource would reconnect for ever. The snapshot (always the first event) says it has ended.
      if (event.type === "snapshot" && isEndedStatus(event.status)) end();
    },
    onEnd: end,
    onClosed: end,
  });
  return () => {
    ended = true;
    stop();
  };
}

const dbQuery = (benchmark: WorkingBenchmark) => queryString({ db: benchmark.db });

export const createBenchmark = (name: string) => apiFetch<unknown>("/api/v2/benchmarks", { body: { name } });

export const loadCuration = (benchmark: WorkingBenchmark) =>
  apiFetch<Curation>(
    `/api/v2/benchmarks/${encodeURIComponent(benchmark.name)}/curation${dbQuery(benchmark)}`,
  );

export const saveCuration = (benchmark: WorkingBenchmark, changes: CurationChanges) =>
  apiFetch<CurationSaved>(
    `/api/v2/benchmarks/${encodeURIComponent(benchmark.name)}/curation${dbQuery(benchmark)}`,
    { method: "PATCH", body: changes },
  );
