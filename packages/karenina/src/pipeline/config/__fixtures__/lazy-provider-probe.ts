/**
 * Builds the ports of a Mistral model (and with `call`, makes one call to a closed port on 127.0.0.1), so a
 * test can see which provider packages the process loaded.
 */
import { userMessage } from "../../../llm/index.js";
import { llmPortFor, ModelConfigSchema } from "../index.js";

const model = ModelConfigSchema.parse({
  id: "m",
  interface: "mistral",
  model_name: "mistral-small-latest",
  endpoint_base_url: "http://127.0.0.1:1/v1",
  endpoint_api_key: "sk-probe",
});
const llm = llmPortFor(model);
if (process.argv.includes("call")) {
  await llm.invoke([userMessage("hello")], { timeoutMs: 2_000 }).catch(() => undefined);
}
