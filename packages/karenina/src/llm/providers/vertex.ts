/**
 * The `vertex` adapter (and `langchain` with `model_provider: "google_vertexai"`): Gemini models on Google
 * Cloud's Vertex AI (`POST .../projects/{project}/locations/{location}/publishers/google/models/{model}:
 * generateContent`) through `@ai-sdk/google-vertex`, imported at the first call, with Google Cloud's
 * conventions: a project and a location, Application Default Credentials (a service-account key file, gcloud's
 * user credentials, or the metadata server on Google Cloud), or an API key in express mode. The connection
 * (project, location, credentials, endpoint) is shared with Claude on Vertex (`vertex-anthropic.ts`), whose
 * publisher differs: see {@link VertexPublisher}.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { GoogleVertexProviderSettings } from "@ai-sdk/google-vertex";
import type { EmbeddingModelV3, LanguageModelV3 } from "@ai-sdk/provider";
import {
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  languageModelTarget,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import { AdapterUnavailableError } from "../errors.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type ProviderEnv, requireModelName } from "./api-key.js";
import { lazyLanguageModel } from "./lazy-model.js";

/**
 * Where a Vertex model runs when no location is given or set: LangChain's default for both `ChatVertexAI` and
 * `ChatAnthropicVertex` (their common base's `location`).
 */
export const VERTEX_DEFAULT_LOCATION = "us-central1";

/** What differs between the publishers whose Vertex models are served here: Google's Gemini, Anthropic's Claude. */
export interface VertexPublisher {
  /** The adapter, named in messages. */
  adapter: string;
  /** The publisher in the model paths (`.../publishers/{name}/models/{model}:...`). */
  name: "google" | "anthropic";
  /** The API version its package calls, also taken when a base URL names only a host. */
  apiVersion: "v1" | "v1beta1";
  /** Whether an API key (express mode, no project) may authorise its calls. */
  expressMode: boolean;
}

/** Gemini on Vertex: `v1beta1`, as `@ai-sdk/google-vertex` calls it, with express mode. */
export const VERTEX_GEMINI: VertexPublisher = Object.freeze({
  adapter: "vertex",
  name: "google",
  apiVersion: "v1beta1",
  expressMode: true,
});

/** Environment variables naming the Google Cloud project, in the order they are tried. */
export const VERTEX_PROJECT_VARIABLES: readonly string[] = Object.freeze([
  "GOOGLE_VERTEX_PROJECT",
  "GOOGLE_CLOUD_PROJECT",
  "GCLOUD_PROJECT",
]);

/** Environment variables naming the location (region), in the order they are tried. */
export const VERTEX_LOCATION_VARIABLES: readonly string[] = Object.freeze([
  "GOOGLE_VERTEX_LOCATION",
  "GOOGLE_CLOUD_LOCATION",
]);

/** Google's OAuth token endpoint, which `google-auth-library` posts service-account grants to. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
/** `google-auth-library`'s options, as `@ai-sdk/google-vertex` takes them (a type only: nothing is loaded). */
type GoogleAuthOptions = NonNullable<GoogleVertexProviderSettings["googleAuthOptions"]>;

const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const EXPRESS_MODE_ROOT = "https://aiplatform.googleapis.com/v1";

/**
 * Settings of a Vertex model; each is else read from `env`.
 * - project: `project`, else `GOOGLE_VERTEX_PROJECT`, `GOOGLE_CLOUD_PROJECT`, `GCLOUD_PROJECT`, else the
 *   credentials file's `project_id` (or `quota_project_id`);
 * - location: `location`, else `GOOGLE_VERTEX_LOCATION`, `GOOGLE_CLOUD_LOCATION`, else `us-central1`;
 * - credentials, first found: an API key (`apiKey`, else `GOOGLE_VERTEX_API_KEY`) for express mode (sent as
 *   `x-goog-api-key`, no project needed; Gemini only: a key given for Claude is refused, the variable ignored);
 *   a credentials file (`credentialsFile`, else
 *   `GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's `application_default_credentials.json` under
 *   `CLOUDSDK_CONFIG` or `~/.config/gcloud`); the metadata server of Google Cloud compute, only when the
 *   environment says it is there (`METADATA_SERVER_DETECTION` other than `none`, `GCE_METADATA_HOST`, or Cloud
 *   Run's `K_SERVICE`);
 * - endpoint: `baseURL` (a host such as `https://europe-west4-aiplatform.googleapis.com`, optionally with its
 *   API version `/v1` or `/v1beta1`, or a full prefix ending in `/publishers/google`, or `/publishers/anthropic`
 *   for Claude), else the location's.
 */
export interface VertexOptions extends ModelCallSettings {
  project?: string | null;
  location?: string | null;
  apiKey?: string | null;
  credentialsFile?: string | null;
  baseURL?: string | null;
  env?: ProviderEnv;
}

/** The fields of a Google credentials file read here (the rest is handed to `google-auth-library`). */
export interface GoogleCredentialsFile {
  type?: string;
  project_id?: string;
  quota_project_id?: string;
  client_email?: string;
  token_uri?: string;
  [field: string]: unknown;
}

/** How a Vertex model's requests are authorised. */
export type VertexAuth =
  | { kind: "api-key"; apiKey: string }
  | { kind: "credentials-file"; path: string; credentials: GoogleCredentialsFile }
  | { kind: "metadata-server" };

/** Where a Vertex model's calls go and how they are authorised. */
export interface VertexConnection {
  auth: VertexAuth;
  /** The project billed; null in express mode. */
  project: string | null;
  location: string;
  /**
   * The URL prefix the model paths (`/models/{model}:generateContent`) follow, ending in `/publishers/google`
   * (`/publishers/anthropic` for Claude).
   */
  baseURL: string;
}

const nonEmpty = (value: string | null | undefined): string | undefined =>
  value !== null && value !== undefined && value.trim() !== "" ? value.trim() : undefined;

const firstSet = (env: ProviderEnv, variables: readonly string[]) =>
  variables.map((name) => nonEmpty(env[name])).find((value) => value !== undefined);

/** The host serving a location: the global endpoint, a multi-region's, or the region's. */
function vertexHost(location: string): string {
  if (location === "global") return "aiplatform.googleapis.com";
  if (location === "eu" || location === "us") return `aiplatform.${location}.rep.googleapis.com`;
  return `${location}-aiplatform.googleapis.com`;
}

/**
 * The URL prefix of a Vertex connection's model paths: a given prefix ending in `/publishers/{publisher}` (or
 * `/publishers/{publisher}/models`) as it is, without `/models`; a given host (with or without `/v1` or
 * `/v1beta1`) completed with the project and location; else the location's endpoint (in the API version the
 * publisher's package calls), or express mode's global one.
 * @example
 * vertexBaseUrl({ given: "http://127.0.0.1:8080", project: "p", location: "us-central1" });
 * // "http://127.0.0.1:8080/v1beta1/projects/p/locations/us-central1/publishers/google"
 */
export function vertexBaseUrl(where: {
  given?: string | undefined;
  project: string | null;
  location: string;
  publisher?: Pick<VertexPublisher, "name" | "apiVersion">;
}): string {
  const { project, location, publisher = VERTEX_GEMINI } = where;
  const express = project === null;
  const publishers = `publishers/${publisher.name}`;
  if (where.given === undefined) {
    return express
      ? `${EXPRESS_MODE_ROOT}/${publishers}`
      : `https://${vertexHost(location)}/${publisher.apiVersion}/projects/${project}/locations/${location}/${publishers}`;
  }
  const trimmed = where.given.replace(/\/+$/, "");
  const prefix = new RegExp(`/${publishers}(?:/models)?$`).exec(trimmed);
  if (prefix !== null) return trimmed.slice(0, prefix.index + publishers.length + 1);
  const version = /\/(v1(?:beta1)?)$/.exec(trimmed);
  const root = version === null ? trimmed : trimmed.slice(0, -version[0].length);
  const api = version?.[1] ?? (express ? "v1" : publisher.apiVersion);
  return express
    ? `${root}/${api}/${publishers}`
    : `${root}/${api}/projects/${project}/locations/${location}/${publishers}`;
}

/** gcloud's Application Default Credentials file (`gcloud auth application-default login`), when present. */
function gcloudCredentialsFile(env: ProviderEnv): string | undefined {
  const configDir =
    nonEmpty(env.CLOUDSDK_CONFIG) ??
    (process.platform === "win32"
      ? join(env.APPDATA ?? homedir(), "gcloud")
      : join(nonEmpty(env.HOME) ?? homedir(), ".config", "gcloud"));
  const file = join(configDir, "application_default_credentials.json");
  return existsSync(file) ? file : undefined;
}

/** Whether the environment says the metadata server of Google Cloud compute is reachable. */
function onGoogleCloud(env: ProviderEnv): boolean {
  const detection = nonEmpty(env.METADATA_SERVER_DETECTION);
  if (detection !== undefined) return detection !== "none";
  return nonEmpty(env.GCE_METADATA_HOST) !== undefined || nonEmpty(env.K_SERVICE) !== undefined;
}

function readCredentialsFile(path: string, from: string, adapter: string): GoogleCredentialsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AdapterUnavailableError(
      `${adapter} cannot read the Google credentials file ${path} (${from}): ${(error as Error).message}; point GOOGLE_APPLICATION_CREDENTIALS at a service-account key file (JSON) or run gcloud auth application-default login`,
      "unreadable Google credentials",
    );
  }
  if (
    parsed === null ||
    typeof parsed !== "object" ||
    typeof (parsed as { type?: unknown }).type !== "string"
  ) {
    throw new AdapterUnavailableError(
      `${adapter}: the Google credentials file ${path} (${from}) is not a credentials file (no "type" field); use a service-account key (type service_account) or gcloud's application default credentials`,
      "invalid Google credentials",
    );
  }
  return parsed as GoogleCredentialsFile;
}

const CREDENTIAL_SOURCES =
  "set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file (JSON), or run gcloud auth application-default login";
const ON_GOOGLE_CLOUD =
  "on Google Cloud compute, set METADATA_SERVER_DETECTION=assume-present to use the attached service account";

function noCredentials(publisher: VertexPublisher): string {
  return publisher.expressMode
    ? `${publisher.adapter} needs Google Cloud credentials: ${CREDENTIAL_SOURCES}, or set GOOGLE_VERTEX_API_KEY for express mode (or give the model's endpoint_api_key); ${ON_GOOGLE_CLOUD}`
    : `${publisher.adapter} needs Google Cloud credentials (Vertex AI serves ${publisher.name} models without express mode, so GOOGLE_VERTEX_API_KEY does not reach them): ${CREDENTIAL_SOURCES}; ${ON_GOOGLE_CLOUD}`;
}

/** The express-mode key of a model, refused for a publisher that has no express mode. */
function expressKey(
  options: VertexOptions,
  env: ProviderEnv,
  publisher: VertexPublisher,
): string | undefined {
  const given = nonEmpty(options.apiKey);
  if (publisher.expressMode) return given ?? nonEmpty(env.GOOGLE_VERTEX_API_KEY);
  if (given === undefined) return undefined;
  throw new AdapterUnavailableError(
    `${publisher.adapter}: Vertex AI serves ${publisher.name} models without API keys (no express mode), so the model's API key (endpoint_api_key or extra_kwargs.api_key) cannot be used; remove it and ${CREDENTIAL_SOURCES}`,
    "API key unsupported",
  );
}

function vertexAuth(options: VertexOptions, env: ProviderEnv, publisher: VertexPublisher): VertexAuth {
  const apiKey = expressKey(options, env, publisher);
  if (apiKey !== undefined) return { kind: "api-key", apiKey };
  const given = nonEmpty(options.credentialsFile);
  const fromEnv = nonEmpty(env.GOOGLE_APPLICATION_CREDENTIALS);
  const gcloud = (given ?? fromEnv) ? undefined : gcloudCredentialsFile(env);
  const path = given ?? fromEnv ?? gcloud;
  if (path !== undefined) {
    const from = given ? "the model's credentials" : fromEnv ? "GOOGLE_APPLICATION_CREDENTIALS" : "gcloud";
    return {
      kind: "credentials-file",
      path,
      credentials: readCredentialsFile(path, from, publisher.adapter),
    };
  }
  if (onGoogleCloud(env)) return { kind: "metadata-server" };
  throw new AdapterUnavailableError(noCredentials(publisher), "missing Google Cloud credentials");
}

/**
 * The connection of a Vertex model of `publisher` (Gemini unless said; see {@link VertexOptions} for where each
 * part comes from). A credentials file is read now, so that a missing or broken one fails when the run starts.
 * @throws {AdapterUnavailableError} when the credentials or the project are missing, the credentials file
 * cannot be read, or an API key is given for a publisher without express mode.
 */
export function vertexConnection(
  options: VertexOptions,
  publisher: VertexPublisher = VERTEX_GEMINI,
): VertexConnection {
  const env = options.env ?? process.env;
  const auth = vertexAuth(options, env, publisher);
  const location =
    nonEmpty(options.location) ?? firstSet(env, VERTEX_LOCATION_VARIABLES) ?? VERTEX_DEFAULT_LOCATION;
  const given = nonEmpty(options.baseURL);
  if (auth.kind === "api-key") {
    return {
      auth,
      project: null,
      location,
      baseURL: vertexBaseUrl({ given, project: null, location, publisher }),
    };
  }
  const fromFile = auth.kind === "credentials-file" ? auth.credentials : undefined;
  const project =
    nonEmpty(options.project) ??
    firstSet(env, VERTEX_PROJECT_VARIABLES) ??
    nonEmpty(fromFile?.project_id) ??
    nonEmpty(fromFile?.quota_project_id);
  if (project === undefined) {
    throw new AdapterUnavailableError(
      `${publisher.adapter} needs a Google Cloud project: set GOOGLE_VERTEX_PROJECT (or GOOGLE_CLOUD_PROJECT), or give the model's extra_kwargs.project`,
      "missing Google Cloud project",
    );
  }
  return { auth, project, location, baseURL: vertexBaseUrl({ given, project, location, publisher }) };
}

/** The values of a connection's credentials never to show in messages. */
export function vertexSecrets({ auth }: VertexConnection): string[] {
  if (auth.kind === "api-key") return [auth.apiKey];
  const key = auth.kind === "credentials-file" ? auth.credentials.private_key : undefined;
  return typeof key === "string" ? [key] : [];
}

/**
 * A fetch that sends Google's token requests to a credentials file's own `token_uri`: `google-auth-library`
 * always posts service-account grants to Google's endpoint, while Google's Python library (the original's)
 * posts them where the key file says.
 */
function tokenUriFetch(tokenUri: string): typeof fetch {
  return (input, init) => fetch(String(input) === GOOGLE_TOKEN_URL ? tokenUri : input, init);
}

/**
 * The `google-auth-library` options of a connection authorised by credentials (not an API key), as both of
 * `@ai-sdk/google-vertex`'s providers take them: the project, the cloud-platform scope, the credentials file's
 * contents (nothing read from elsewhere), and its `token_uri` honoured; none for the metadata server.
 */
export function googleAuthOptions(connection: VertexConnection): GoogleAuthOptions {
  const { auth, project } = connection;
  const base = { scopes: [CLOUD_PLATFORM_SCOPE], ...(project === null ? {} : { projectId: project }) };
  if (auth.kind !== "credentials-file") return base;
  const tokenUri = auth.credentials.token_uri;
  const redirect =
    auth.credentials.type === "service_account" &&
    typeof tokenUri === "string" &&
    tokenUri !== GOOGLE_TOKEN_URL;
  return {
    ...base,
    credentials: auth.credentials as GoogleAuthOptions["credentials"],
    ...(redirect
      ? { clientOptions: { transporterOptions: { fetchImplementation: tokenUriFetch(tokenUri) } } }
      : {}),
  };
}

/**
 * The `@ai-sdk/google-vertex` provider of a connection, imported now, with every setting given so that the
 * package reads no environment: express mode with the key, else the project, location and credentials.
 */
export async function vertexProvider(connection: VertexConnection) {
  const { createVertex } = await import("@ai-sdk/google-vertex");
  const { auth, baseURL } = connection;
  if (auth.kind === "api-key") return createVertex({ apiKey: auth.apiKey, baseURL });
  return createVertex({
    // An empty key keeps the package from taking GOOGLE_VERTEX_API_KEY from the process.
    apiKey: "",
    project: connection.project ?? "",
    location: connection.location,
    baseURL,
    googleAuthOptions: googleAuthOptions(connection),
  });
}

/** A lazily loaded Vertex chat model of a connection. */
function vertexLanguageModel(connection: VertexConnection, modelName: string): LanguageModelV3 {
  return lazyLanguageModel({
    provider: "google.vertex.chat",
    modelId: modelName,
    load: async () => (await vertexProvider(connection)).languageModel(modelName),
  });
}

/** The Vertex embedding model `modelName` of a connection, its package imported now. */
export async function vertexEmbeddingModel(
  connection: VertexConnection,
  modelName: string,
): Promise<EmbeddingModelV3> {
  return (await vertexProvider(connection)).embeddingModel(modelName);
}

/**
 * The AI SDK model behind the `vertex` adapter (structured output through `responseSchema`, as on the Gemini
 * API); `@ai-sdk/google-vertex` (and `google-auth-library`) are imported at the first call.
 * @throws {AdapterUnavailableError} when the model name, the credentials or the project is missing.
 */
export function vertexModel(options: VertexOptions): LanguageModelTarget {
  requireModelName("vertex", options.modelName);
  const connection = vertexConnection(options);
  const target = languageModelTarget(
    "vertex",
    options,
    vertexLanguageModel(connection, options.modelName),
    "",
  );
  return { ...target, secrets: vertexSecrets(connection) };
}

/** An `LlmPort` over Gemini on Vertex AI. */
export function vertexLlm(options: VertexOptions): LlmPort {
  return languageModelLlm(vertexModel(options));
}

/** A `ParserPort` over Gemini on Vertex AI (native structured output, then the JSON fallbacks). */
export function vertexParser(options: VertexOptions): ParserPort {
  return languageModelParser(vertexModel(options));
}
