/**
 * A model's extra request arguments (its `extra_kwargs` without the control keys, spec 05 §5.1) as the settings
 * of an AI SDK call. The original hands them to its chat client, which sends them in the request body; here
 * the common ones become the SDK's own settings, and the rest reach the body where the provider allows it.
 */
import type { JSONObject, JSONValue, LanguageModelV3CallOptions } from "@ai-sdk/provider";

/** The settings of an AI SDK call made of a model's extra arguments; the same names in `generateText`. */
export type RequestSettings = Pick<
  LanguageModelV3CallOptions,
  "topP" | "topK" | "frequencyPenalty" | "presencePenalty" | "stopSequences" | "seed" | "providerOptions"
>;

/** Arguments sent under the SDK setting of the same meaning (they land in the body under their own name). */
const NUMBER_SETTINGS = {
  top_p: "topP",
  frequency_penalty: "frequencyPenalty",
  presence_penalty: "presencePenalty",
  seed: "seed",
} as const;

function stopSequences(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return undefined;
}

/**
 * The call settings of `kwargs`: `top_p`, `frequency_penalty`, `presence_penalty`, `seed`, `stop` (a string or a
 * list) as the SDK's settings. With `bodyProvider` (the provider-options name of an OpenAI-compatible provider,
 * which merges that entry into the request body) every other argument is sent as given, `top_k` included (the
 * SDK would drop its `topK` for these servers); without it (the OpenAI, Anthropic and Google clients, whose SDK
 * providers send only fields they know) `top_k` becomes `topK` and other arguments are not sent.
 * @example
 * requestSettings({ top_p: 0.5, repetition_penalty: 1.1 }, "openai_endpoint");
 * // { topP: 0.5, providerOptions: { openai_endpoint: { repetition_penalty: 1.1 } } }
 */
export function requestSettings(
  kwargs: Readonly<Record<string, unknown>> | undefined,
  bodyProvider?: string,
): RequestSettings {
  const settings: RequestSettings = {};
  const body: JSONObject = {};
  for (const [key, value] of Object.entries(kwargs ?? {})) {
    if (value === undefined) continue;
    const setting = NUMBER_SETTINGS[key as keyof typeof NUMBER_SETTINGS];
    if (setting !== undefined && typeof value === "number" && Number.isFinite(value)) {
      settings[setting] = value;
    } else if (key === "stop" && stopSequences(value) !== undefined) {
      settings.stopSequences = stopSequences(value) as string[];
    } else if (key === "top_k" && bodyProvider === undefined && typeof value === "number") {
      settings.topK = value;
    } else if (bodyProvider !== undefined) {
      body[key] = value as JSONValue;
    }
  }
  if (bodyProvider !== undefined && Object.keys(body).length > 0) {
    settings.providerOptions = { [bodyProvider]: body };
  }
  return settings;
}
