import { KareninaError } from "../../errors/index.js";
import { INTERFACES, isKnownInterface } from "./model/index.js";

/** A model given on the command line as `interface:model[@base_url]`. */
export interface ModelSpec {
  interface: string;
  modelName: string;
  baseUrl: string | null;
}

/** A model SPEC that cannot be read; the message shows the expected form and the known interfaces. */
export class ModelSpecError extends KareninaError {
  override readonly name: string = "ModelSpecError";

  constructor(
    readonly spec: string,
    reason: string,
  ) {
    super(
      `model ${JSON.stringify(spec)}: ${reason}; expected interface:model[@base_url], e.g. ` +
        `openai_endpoint:llama3.1@http://127.0.0.1:11434/v1 or anthropic:claude-haiku-4-5 ` +
        `(interfaces: ${Object.keys(INTERFACES).join(", ")})`,
    );
  }
}

/**
 * Reads `interface:model[@base_url]`. The model name may itself contain `:` (`llama3.1:8b`); the base URL is
 * whatever follows the last `@` that starts an `http(s)://` URL.
 * @example
 * parseModelSpec("openai_endpoint:llama3.1:8b@http://127.0.0.1:11434/v1");
 * // { interface: "openai_endpoint", modelName: "llama3.1:8b", baseUrl: "http://127.0.0.1:11434/v1" }
 * parseModelSpec("anthropic:claude-haiku-4-5").baseUrl; // null
 */
export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(":");
  if (colon <= 0) throw new ModelSpecError(spec, "no interface before ':'");
  const interfaceName = spec.slice(0, colon);
  if (!isKnownInterface(interfaceName))
    throw new ModelSpecError(spec, `unknown interface ${JSON.stringify(interfaceName)}`);
  const rest = spec.slice(colon + 1);
  const at = rest.search(/@https?:\/\/[^@]*$/);
  const modelName = at < 0 ? rest : rest.slice(0, at);
  const baseUrl = at < 0 ? null : rest.slice(at + 1);
  if (modelName.trim() === "") throw new ModelSpecError(spec, "no model name");
  return { interface: interfaceName, modelName, baseUrl };
}
