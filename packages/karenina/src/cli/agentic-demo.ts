/**
 * The agentic demo (`karenina demo --agentic`): two coding tasks in workspaces, answered by a tool-loop agent
 * that edits files, judged by an agentic judge that reads what it left, with an agentic rubric trait. Offline,
 * every agent turn and judge reply comes from recordings written by hand (see
 * `examples/agentic/recordings/README.md`); live, one model plays both parts.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModelConfigInput, VerificationConfigInput } from "../pipeline/index.js";

const exampleFile = (name: string) =>
  fileURLToPath(new URL(`../../examples/agentic/${name}`, import.meta.url));

/** The agentic demo benchmark: fix a bug in each of two small JavaScript projects. */
export const AGENTIC_DEMO_CHECKPOINT = exampleFile("agentic.jsonld");

/** The projects the questions' `workspace_path`s name (never worked in directly: see {@link withDemoWorkspaces}). */
export const AGENTIC_DEMO_WORKSPACES = exampleFile("workspaces");

/** The recorded agent runs and judge calls of the offline agentic demo: written by hand (see its README). */
export const AGENTIC_DEMO_RECORDINGS = exampleFile("recordings");

/** Where `karenina demo --agentic` appends its results unless `-o` says otherwise (in the current directory). */
export const AGENTIC_DEMO_OUTPUT = "karenina-agentic-demo.jsonl";

/** The placeholder endpoint of the offline agentic demo's models: never contacted (`.invalid` does not resolve). */
export const AGENTIC_DEMO_ENDPOINT = "http://recorded-agentic-demo.invalid/v1";

/** A model named for what it is, at an endpoint that is never contacted: its replies come from recordings. */
export function recordedModel(name: string, endpoint: string): ModelConfigInput {
  return {
    id: name,
    model_name: name,
    interface: "openai_endpoint",
    endpoint_base_url: endpoint,
    endpoint_api_key: "not-needed",
  } as ModelConfigInput;
}

/** What every agentic demo run evaluates: templates (with an agentic judge) and rubrics (an agentic trait). */
export const AGENTIC_DEMO_SETTINGS = {
  evaluation_mode: "template_and_rubric",
  agentic_parsing: true,
} as const;

/**
 * The offline agentic demo run: the answering agent's turns (`handwritten-agent`) and the judge's
 * (`handwritten-judge`) are replayed from {@link AGENTIC_DEMO_RECORDINGS}; both are hand-written examples.
 */
export const AGENTIC_DEMO_OFFLINE_CONFIG: VerificationConfigInput = {
  answering_models: [recordedModel("handwritten-agent", AGENTIC_DEMO_ENDPOINT)],
  parsing_models: [recordedModel("handwritten-judge", AGENTIC_DEMO_ENDPOINT)],
  ...AGENTIC_DEMO_SETTINGS,
};

/**
 * Runs `body` with a fresh copy of the demo's workspaces as the workspace root, removed afterwards: agents
 * work in copies made beside their project, and an installed package may be read-only.
 */
export async function withDemoWorkspaces<T>(body: (root: string) => Promise<T>): Promise<T> {
  const root = await mkdtemp(join(tmpdir(), "karenina-agentic-demo-"));
  try {
    await cp(AGENTIC_DEMO_WORKSPACES, root, { recursive: true });
    return await body(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
