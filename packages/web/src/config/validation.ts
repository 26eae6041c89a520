import type { ApiModelDefaults } from "../library-types/index.js";

/** The rule of `.env` keys the server enforces: upper-case letters, digits and `_`, not starting with a digit. */
export const ENV_KEY_PATTERN = /^[A-Z_][A-Z0-9_]*$/;

/** What is wrong with a new `.env` key, or undefined. */
export function envKeyProblem(key: string, existing: readonly string[] = []): string | undefined {
  if (key === "") return "Give the variable a name, e.g. OPENAI_API_KEY.";
  if (key.length > 100) return "Use at most 100 characters.";
  if (!ENV_KEY_PATTERN.test(key)) return "Use upper-case letters, digits and _, not starting with a digit.";
  return existing.includes(key) ? `${key} is set already: remove it first, or edit the raw file.` : undefined;
}

/** What is wrong with a `.env` value, or undefined. */
export function envValueProblem(value: string): string | undefined {
  if (value.length > 1000) return "Use at most 1000 characters.";
  return /[\r\n]/.test(value) ? "A value is one line." : undefined;
}

const HTTP_URL = /^https?:\/\/[^\s/]+/;

/** The problems of defaults before saving, by field (the server's rules). */
export function defaultsProblems(
  defaults: ApiModelDefaults,
): Partial<Record<keyof ApiModelDefaults, string>> {
  const problems: Partial<Record<keyof ApiModelDefaults, string>> = {};
  if (defaults.default_model.trim() === "")
    problems.default_model = "Give a model name, e.g. claude-haiku-4-5.";
  if (!defaults.default_interface.startsWith("claude_") && defaults.default_provider.trim() === "")
    problems.default_provider = "Give a provider, e.g. anthropic.";
  const endpoint = defaults.default_endpoint_base_url ?? "";
  if (defaults.default_interface === "openai_endpoint" && endpoint === "")
    problems.default_endpoint_base_url = "openai_endpoint needs the endpoint's base URL.";
  else if (endpoint !== "" && !HTTP_URL.test(endpoint))
    problems.default_endpoint_base_url = "Use an http:// or https:// URL.";
  const anthropic = defaults.default_anthropic_base_url ?? "";
  if (anthropic !== "" && !HTTP_URL.test(anthropic))
    problems.default_anthropic_base_url = "Use an http:// or https:// URL.";
  return problems;
}
