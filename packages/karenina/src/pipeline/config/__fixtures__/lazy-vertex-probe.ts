/**
 * Builds a Vertex chat port and a Vertex embedding port (express mode, at a closed port on 127.0.0.1), then
 * calls the one named on the command line (`chat` or `embed`) once, or none, so a test can see whether
 * `@ai-sdk/google-vertex` and `google-auth-library` were loaded.
 */
import { userMessage } from "../../../llm/index.js";
import { embeddingPortFor, llmPortFor, ModelConfigSchema } from "../index.js";

const env = { GOOGLE_VERTEX_API_KEY: "probe" };
const model = ModelConfigSchema.parse({
  id: "v",
  interface: "vertex",
  model_name: "gemini-2.5-flash",
  endpoint_base_url: "http://127.0.0.1:1",
});
const chat = llmPortFor(model, { env });
const embeddings = embeddingPortFor(model, "gemini-embedding-001", { env });
if (process.argv.includes("chat")) {
  await chat.invoke([userMessage("hello")], { timeoutMs: 2_000 }).catch(() => undefined);
}
if (process.argv.includes("embed")) {
  await embeddings.embed(["hello"], { timeoutMs: 2_000 }).catch(() => undefined);
}
