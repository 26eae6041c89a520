/**
 * The `bedrock` adapter (and `langchain` with `model_provider: "bedrock"` or `"bedrock_converse"`): Amazon
 * Bedrock's Converse API (`POST /model/{modelId}/converse`) through `@ai-sdk/amazon-bedrock`, imported at the
 * first call, with the conventions of the AWS SDKs: a region, SigV4-signed requests with the access keys of the
 * environment, or a Bedrock API key sent as a bearer token.
 */
import type { JSONObject } from "@ai-sdk/provider";
import {
  callSettings,
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import { AdapterUnavailableError } from "../errors.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { requestSettings } from "../request-settings.js";
import { type ProviderEnv, requireModelName } from "./api-key.js";
import { lazyLanguageModel } from "./lazy-model.js";

/**
 * Settings of a Bedrock model; each is else read from `env` as the AWS SDKs read it.
 * - region: `region`, else `AWS_REGION`, else `AWS_DEFAULT_REGION`;
 * - credentials: a Bedrock API key (`apiKey`, else `AWS_BEARER_TOKEN_BEDROCK`) sent as a bearer token; else
 *   access keys (`accessKeyId` and `secretAccessKey` with `sessionToken`, else `AWS_ACCESS_KEY_ID`,
 *   `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`) signing each request with SigV4;
 * - endpoint: `baseURL`, else `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`, else `AWS_ENDPOINT_URL`, else the region's
 *   `https://bedrock-runtime.<region>.amazonaws.com`.
 */
export interface BedrockOptions extends ModelCallSettings {
  region?: string | null;
  apiKey?: string | null;
  accessKeyId?: string | null;
  secretAccessKey?: string | null;
  sessionToken?: string | null;
  baseURL?: string | null;
  env?: ProviderEnv;
}

/** How a Bedrock model's requests are signed: a bearer API key, or SigV4 with access keys. */
export type BedrockCredentials =
  | { kind: "api-key"; apiKey: string }
  | { kind: "sigv4"; accessKeyId: string; secretAccessKey: string; sessionToken?: string };

/** Where a Bedrock model's calls go and how they are signed. */
export interface BedrockConnection {
  /** The region signed for (SigV4); null only with an API key and an explicit endpoint. */
  region: string | null;
  /** The runtime endpoint, without a trailing `/`. */
  baseURL: string;
  credentials: BedrockCredentials;
}

const nonEmpty = (value: string | null | undefined): string | undefined =>
  value !== null && value !== undefined && value.trim() !== "" ? value.trim() : undefined;

/** The runtime endpoint of a region (China's regions are under `amazonaws.com.cn`). */
export function bedrockRuntimeUrl(region: string): string {
  return `https://bedrock-runtime.${region}.${region.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com"}`;
}

function bedrockCredentials(options: BedrockOptions, env: ProviderEnv): BedrockCredentials {
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.AWS_BEARER_TOKEN_BEDROCK);
  if (apiKey !== undefined) return { kind: "api-key", apiKey };
  const given =
    nonEmpty(options.accessKeyId) !== undefined || nonEmpty(options.secretAccessKey) !== undefined;
  // A session token belongs to its access keys: keys given with the model never take the environment's token.
  const accessKeyId = given ? nonEmpty(options.accessKeyId) : nonEmpty(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = given ? nonEmpty(options.secretAccessKey) : nonEmpty(env.AWS_SECRET_ACCESS_KEY);
  const sessionToken = given ? nonEmpty(options.sessionToken) : nonEmpty(env.AWS_SESSION_TOKEN);
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new AdapterUnavailableError(
      "bedrock needs AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN for temporary credentials), or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK, or give them in the model's extra_kwargs (aws_access_key_id, aws_secret_access_key, aws_session_token); profiles (AWS_PROFILE, ~/.aws) and instance roles are not read",
      "missing AWS credentials",
    );
  }
  return { kind: "sigv4", accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/**
 * The connection of a Bedrock model (see {@link BedrockOptions} for where each part comes from).
 * @throws {AdapterUnavailableError} when the credentials are missing, or the region is (SigV4 signs for a
 * region; without an endpoint the region names it).
 */
export function bedrockConnection(options: BedrockOptions): BedrockConnection {
  const env = options.env ?? process.env;
  const credentials = bedrockCredentials(options, env);
  const region = nonEmpty(options.region) ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION);
  const endpoint =
    nonEmpty(options.baseURL) ??
    nonEmpty(env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME) ??
    nonEmpty(env.AWS_ENDPOINT_URL);
  if (region === undefined && (credentials.kind === "sigv4" || endpoint === undefined)) {
    throw new AdapterUnavailableError(
      "bedrock needs an AWS region: set AWS_REGION (or AWS_DEFAULT_REGION), or give the model's extra_kwargs.region_name",
      "missing AWS region",
    );
  }
  const baseURL = (endpoint ?? bedrockRuntimeUrl(region as string)).replace(/\/+$/, "");
  return { region: region ?? null, baseURL, credentials };
}

/** The `@ai-sdk/amazon-bedrock` settings of a connection, every one given so that the package reads no environment. */
export function providerSettings({ region, baseURL, credentials }: BedrockConnection) {
  const where = { baseURL, ...(region === null ? {} : { region }) };
  if (credentials.kind === "api-key") return { ...where, apiKey: credentials.apiKey };
  // An empty API key keeps the package from taking AWS_BEARER_TOKEN_BEDROCK from the process instead.
  return {
    ...where,
    apiKey: "",
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken === undefined ? {} : { sessionToken: credentials.sessionToken }),
  };
}

/** The values of a connection's credentials never to show in messages. */
export function secretsOf(credentials: BedrockCredentials): string[] {
  if (credentials.kind === "api-key") return [credentials.apiKey];
  return [
    credentials.secretAccessKey,
    ...(credentials.sessionToken === undefined ? [] : [credentials.sessionToken]),
  ];
}

/**
 * The request settings of a Bedrock model: the common arguments as the SDK's settings, and
 * `additional_model_request_fields` (as LangChain's `ChatBedrockConverse` takes it) sent as Converse's
 * `additionalModelRequestFields`.
 */
function bedrockRequest(extraKwargs: Readonly<Record<string, unknown>> | undefined) {
  const settings = requestSettings(extraKwargs);
  const fields = extraKwargs?.additional_model_request_fields;
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) return settings;
  return {
    ...settings,
    providerOptions: { bedrock: { additionalModelRequestFields: fields as JSONObject } },
  };
}

/**
 * The AI SDK model behind the `bedrock` adapter; `@ai-sdk/amazon-bedrock` is imported at the first call.
 * @throws {AdapterUnavailableError} when the model name, the credentials or the region is missing.
 */
export function bedrockModel(options: BedrockOptions): LanguageModelTarget {
  requireModelName("bedrock", options.modelName);
  const connection = bedrockConnection(options);
  const model = lazyLanguageModel({
    provider: "amazon-bedrock",
    modelId: options.modelName,
    load: async () =>
      (await import("@ai-sdk/amazon-bedrock"))
        .createAmazonBedrock(providerSettings(connection))
        .languageModel(options.modelName),
  });
  const settings = callSettings(options);
  return {
    ...settings,
    adapter: "bedrock",
    model,
    secrets: secretsOf(connection.credentials),
    request: bedrockRequest(settings.extraKwargs),
  };
}

/** An `LlmPort` over Amazon Bedrock's Converse API. */
export function bedrockLlm(options: BedrockOptions): LlmPort {
  return languageModelLlm(bedrockModel(options));
}

/**
 * A `ParserPort` over Amazon Bedrock: structured output as the provider package asks for it (a forced `json`
 * tool, or Claude's native JSON-schema output where the model has it), then the JSON fallbacks.
 */
export function bedrockParser(options: BedrockOptions): ParserPort {
  return languageModelParser(bedrockModel(options));
}
