import { useCallback, useEffect, useRef, useState } from "react";
import type {
  ExtractedQuestion,
  GeneratedTemplateOutcome,
  TemplateGenerationJob,
} from "../library-types/index.js";
import { useSessionSlice } from "../session/index.js";
import { useToast } from "../toast/index.js";
import {
  cancelGeneration,
  followGeneration,
  generationJob,
  resumeGeneration,
  startGeneration,
} from "./generate-api.js";
import { type GeneratorSettings, generateSlice } from "./generate-state.js";
import { type GenerationProgress, isEndedStatus, outcomeOfEvent, progressOf } from "./generation-progress.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface GenerationJobControls {
  /** The running job's progress; null when no job runs. */
  readonly progress: GenerationProgress | null;
  /** The last job's duration in seconds once it has ended ("Completed in …"). */
  readonly completedIn: number | null;
  /** The last job's end, when it did not complete ("cancelled", "failed: …", "interrupted"). */
  readonly endNote: string | null;
  /** The last job, when it ended `interrupted` (a server restart stopped it): {@link resume} runs it again. */
  readonly interruptedJobId: string | null;
  start(
    questions: readonly ExtractedQuestion[],
    settings: GeneratorSettings,
    apiKey: string,
    force: boolean,
  ): Promise<void>;
  cancel(): Promise<void>;
  /** Resumes the interrupted job (its finished templates are restored) and follows its progress again. */
  resume(): Promise<void>;
}

/** The generator ModelConfig a generation job is started with (the API key only for `openai_endpoint`). */
export function modelConfig(settings: GeneratorSettings, apiKey: string) {
  const endpoint = settings.interface === "openai_endpoint";
  return {
    id: "template-generator",
    model_name: settings.model,
    interface: settings.interface,
    model_provider: settings.provider === "" ? null : settings.provider,
    temperature: settings.temperature,
    ...(endpoint
      ? { endpoint_base_url: settings.endpointBaseUrl, endpoint_api_key: apiKey === "" ? null : apiKey }
      : {}),
  };
}

/**
 * The generation job of tab 1: starts it, follows its events (rows fail or succeed live), reattaches after a
 * reload (the job id is in the session slice), cancels it, and merges its templates into the slice.
 */
export function useGenerationJob(): GenerationJobControls {
  const [state, setState] = useSessionSlice(generateSlice);
  const toast = useToast();
  const [progress, setProgress] = useState<GenerationProgress | null>(null);
  const [completedIn, setCompletedIn] = useState<number | null>(null);
  const [endNote, setEndNote] = useState<string | null>(null);
  const [interruptedJobId, setInterruptedJobId] = useState<string | null>(null);
  const stop = useRef<(() => void) | null>(null);
  const jobId = state.jobId;

  const merge = useCallback(
    (templates: Readonly<Record<string, GeneratedTemplateOutcome>>) =>
      setState((current) => ({ ...current, results: { ...current.results, ...templates } })),
    [setState],
  );

  const finish = useCallback(
    (view: TemplateGenerationJob) => {
      if (view.outcome !== null) merge(view.outcome.templates);
      setProgress(null);
      setCompletedIn(view.duration_seconds);
      setInterruptedJobId(view.status === "interrupted" ? view.job_id : null);
      setEndNote(
        view.status === "completed"
          ? null
          : view.status === "failed"
            ? `failed: ${view.error ?? ""}`
            : view.status,
      );
      setState((current) => (current.jobId === view.job_id ? { ...current, jobId: null } : current));
    },
    [merge, setState],
  );

  useEffect(() => {
    if (jobId === null) return;
    let active = true;
    const stopFollowing = followGeneration(
      jobId,
      (event) => {
        if (!active) return;
        setProgress(progressOf(event));
        const outcome = outcomeOfEvent(event);
        if (outcome !== null) merge({ [outcome[0]]: outcome[1] });
      },
      () => {
        generationJob(jobId)
          .then((view) => {
            if (active && isEndedStatus(view.status)) finish(view);
          })
          .catch((error) => {
            if (!active) return;
            setProgress(null);
            setState((current) => ({ ...current, jobId: null }));
            toast({ tone: "error", message: `The generation job is gone: ${messageOf(error)}` });
          });
      },
    );
    stop.current = stopFollowing;
    return () => {
      active = false;
      stopFollowing();
    };
  }, [jobId, merge, finish, setState, toast]);

  const start = useCallback(
    async (
      questions: readonly ExtractedQuestion[],
      settings: GeneratorSettings,
      apiKey: string,
      force: boolean,
    ) => {
      setCompletedIn(null);
      setEndNote(null);
      setInterruptedJobId(null);
      const started = await startGeneration({
        questions: questions.map((question) => ({
          id: question.id,
          question: question.question,
          raw_answer: question.raw_answer,
          keywords: question.keywords,
          answer_notes: question.answer_notes,
        })),
        config: modelConfig(settings, apiKey),
        force_regenerate: force,
      });
      const ids = new Set(questions.map((question) => question.id));
      setState((current) => ({
        ...current,
        jobId: started.job_id,
        results: Object.fromEntries(Object.entries(current.results).filter(([id]) => !ids.has(id))),
        resultsModel: {
          name: settings.model,
          provider: settings.interface === "openai_endpoint" ? null : settings.provider,
          interface: settings.interface,
          temperature: settings.temperature,
        },
      }));
    },
    [setState],
  );

  const cancel = useCallback(async () => {
    if (jobId === null) return;
    stop.current?.();
    setProgress(null);
    try {
      finish(await cancelGeneration(jobId));
    } catch (error) {
      toast({ tone: "error", message: `Cancel failed: ${messageOf(error)}` });
      setState((current) => ({ ...current, jobId: null }));
    }
  }, [jobId, finish, setState, toast]);

  const resume = useCallback(async () => {
    if (interruptedJobId === null) return;
    const resumed = await resumeGeneration(interruptedJobId);
    setCompletedIn(null);
    setEndNote(null);
    setInterruptedJobId(null);
    setState((current) => ({ ...current, jobId: resumed.job_id }));
  }, [interruptedJobId, setState]);

  return { progress, completedIn, endNote, interruptedJobId, start, cancel, resume };
}
