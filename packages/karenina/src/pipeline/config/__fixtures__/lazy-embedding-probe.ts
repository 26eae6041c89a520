/**
 * Builds the embedding ports of a Mistral, Cohere, Azure, Ollama and Bedrock model, then embeds once through
 * the one named on the command line (`mistral`, `cohere`, `azure`, `ollama`, `bedrock`) at a closed port on
 * 127.0.0.1, so a test can see which provider packages the process loaded.
 */
import { embeddingPortFor, ModelConfigSchema } from "../index.js";

const CLOSED = "http://127.0.0.1:1";
const model = (fields: Record<string, unknown>) => ModelConfigSchema.parse({ id: "e", ...fields });

const ports = {
  mistral: embeddingPortFor(
    model({ interface: "mistral", model_name: "m", endpoint_base_url: CLOSED, endpoint_api_key: "probe" }),
    "mistral-embed",
  ),
  cohere: embeddingPortFor(model({ interface: "cohere", model_name: "c" }), "embed-english-v3.0", {
    env: { CO_API_KEY: "probe", CO_API_URL: CLOSED },
  }),
  azure: embeddingPortFor(model({ interface: "azure", model_name: "a" }), "embedder", {
    env: { AZURE_OPENAI_API_KEY: "probe", AZURE_OPENAI_ENDPOINT: CLOSED },
  }),
  ollama: embeddingPortFor(model({ interface: "ollama", model_name: "o" }), "nomic-embed-text", {
    env: { OLLAMA_HOST: CLOSED },
  }),
  bedrock: embeddingPortFor(model({ interface: "bedrock", model_name: "b" }), "amazon.titan-embed-text-v2:0", {
    env: { AWS_REGION: "us-east-1", AWS_BEARER_TOKEN_BEDROCK: "probe", AWS_ENDPOINT_URL: CLOSED },
  }),
};
const called = Object.entries(ports).find(([name]) => process.argv.includes(name))?.[1];
await called?.embed(["hello"], { timeoutMs: 2_000 }).catch(() => undefined);
