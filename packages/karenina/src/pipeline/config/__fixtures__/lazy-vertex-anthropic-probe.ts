/**
 * Builds a Claude-on-Vertex chat port (a service-account key made here, its token endpoint and the model's
 * endpoint at a closed port on 127.0.0.1), then calls it once when the command line says `chat`, so a test can
 * see whether `@ai-sdk/google-vertex` and `google-auth-library` were loaded.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userMessage } from "../../../llm/index.js";
import { llmPortFor, ModelConfigSchema } from "../index.js";

const dir = mkdtempSync(join(tmpdir(), "karenina-vertex-anthropic-probe-"));
const keyFile = join(dir, "service-account.json");
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
writeFileSync(
  keyFile,
  JSON.stringify({
    type: "service_account",
    project_id: "probe",
    private_key: privateKey,
    client_email: "probe@probe.iam.gserviceaccount.com",
    token_uri: "http://127.0.0.1:1/token",
  }),
);
try {
  const model = ModelConfigSchema.parse({
    id: "c",
    interface: "vertex_anthropic",
    model_name: "claude-sonnet-4-5@20250929",
    endpoint_base_url: "http://127.0.0.1:1",
  });
  const chat = llmPortFor(model, { env: { GOOGLE_APPLICATION_CREDENTIALS: keyFile } });
  if (process.argv.includes("chat")) {
    await chat.invoke([userMessage("hello")], { timeoutMs: 2_000 }).catch(() => undefined);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
