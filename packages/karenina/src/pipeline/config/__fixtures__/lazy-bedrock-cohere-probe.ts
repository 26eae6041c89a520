/**
 * Builds the ports of a Bedrock and a Cohere model, then calls the one named on the command line (`bedrock`
 * or `cohere`) once, at a closed port on 127.0.0.1, so a test can see which provider packages the process loaded.
 */
import { userMessage } from "../../../llm/index.js";
import { llmPortFor, ModelConfigSchema } from "../index.js";

const bedrock = llmPortFor(
  ModelConfigSchema.parse({ id: "b", interface: "bedrock", model_name: "amazon.nova-pro-v1:0" }),
  { env: { AWS_REGION: "us-east-1", AWS_BEARER_TOKEN_BEDROCK: "probe", AWS_ENDPOINT_URL: "http://127.0.0.1:1" } },
);
const cohere = llmPortFor(
  ModelConfigSchema.parse({ id: "c", interface: "cohere", model_name: "command-r-08-2024" }),
  { env: { CO_API_KEY: "probe", CO_API_URL: "http://127.0.0.1:1" } },
);
const called = process.argv.includes("bedrock") ? bedrock : process.argv.includes("cohere") ? cohere : null;
await called?.invoke([userMessage("hello")], { timeoutMs: 2_000 }).catch(() => undefined);
