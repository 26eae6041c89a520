/**
 * Where a Claude-on-Vertex model's calls go and how they are authorised: Vertex's connection rules (shared with
 * Gemini) with Anthropic's publisher, the `v1` API and no express mode (the calls themselves are tested over
 * HTTP in pipeline/config/vertex-anthropic-provider.test.ts).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AdapterUnavailableError } from "../errors.js";
import { vertexBaseUrl } from "./vertex.js";
import { VERTEX_ANTHROPIC, vertexAnthropicConnection, vertexAnthropicModel } from "./vertex-anthropic.js";

let dir: string;
let serviceAccount: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-vertex-anthropic-unit-"));
  serviceAccount = join(dir, "sa.json");
  await writeFile(
    serviceAccount,
    JSON.stringify({
      type: "service_account",
      project_id: "from-key-file",
      private_key: "-----BEGIN PRIVATE KEY-----\nhand-written\n-----END PRIVATE KEY-----\n",
      client_email: "sa@from-key-file.iam.gserviceaccount.com",
    }),
  );
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("vertexBaseUrl for Claude", () => {
  const publisher = VERTEX_ANTHROPIC;
  test.each([
    [
      { project: "p", location: "us-east5" },
      "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic",
    ],
    [
      { project: "p", location: "global" },
      "https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/anthropic",
    ],
    [
      { given: "https://europe-west1-aiplatform.googleapis.com", project: "p", location: "europe-west1" },
      "https://europe-west1-aiplatform.googleapis.com/v1/projects/p/locations/europe-west1/publishers/anthropic",
    ],
    [
      { given: "http://127.0.0.1:9/v1beta1/", project: "p", location: "us-east5" },
      "http://127.0.0.1:9/v1beta1/projects/p/locations/us-east5/publishers/anthropic",
    ],
    [
      { given: "https://gw.example/vertex/publishers/anthropic/models/", project: "p", location: "x" },
      "https://gw.example/vertex/publishers/anthropic",
    ],
  ])("%o → %s", (where, expected) => {
    expect(vertexBaseUrl({ ...where, publisher })).toBe(expected);
  });
});

describe("vertexAnthropicConnection", () => {
  const base = { modelName: "claude-sonnet-4-5@20250929" };

  test("the location defaults to us-central1 (ChatAnthropicVertex's default), else is read as for Gemini", () => {
    const env = { GOOGLE_APPLICATION_CREDENTIALS: serviceAccount };
    expect(vertexAnthropicConnection({ ...base, env })).toMatchObject({
      project: "from-key-file",
      location: "us-central1",
      baseURL:
        "https://us-central1-aiplatform.googleapis.com/v1/projects/from-key-file/locations/us-central1/publishers/anthropic",
    });
    expect(
      vertexAnthropicConnection({ ...base, env: { ...env, GOOGLE_VERTEX_LOCATION: "us-east5" } }).location,
    ).toBe("us-east5");
  });

  test("GOOGLE_VERTEX_API_KEY is not a credential for Claude: the key file is used instead", () => {
    const connection = vertexAnthropicConnection({
      ...base,
      env: { GOOGLE_VERTEX_API_KEY: "k", GOOGLE_APPLICATION_CREDENTIALS: serviceAccount },
    });
    expect(connection.auth).toMatchObject({ kind: "credentials-file", path: serviceAccount });
  });

  test("an API key given is refused, naming the settings and what to use instead, never the key", () => {
    let error: unknown;
    try {
      vertexAnthropicConnection({
        ...base,
        apiKey: "secret-express",
        env: { GOOGLE_APPLICATION_CREDENTIALS: serviceAccount },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AdapterUnavailableError);
    expect((error as Error).message).toMatch(/endpoint_api_key or extra_kwargs\.api_key/);
    expect((error as Error).message).toMatch(/gcloud auth application-default login/);
    expect((error as Error).message).not.toContain("secret-express");
  });

  test("the model's target keeps the service account's private key out of messages", () => {
    const target = vertexAnthropicModel({ ...base, env: { GOOGLE_APPLICATION_CREDENTIALS: serviceAccount } });
    expect(target.adapter).toBe("vertex_anthropic");
    expect(target.model.provider).toBe("vertex.anthropic.messages");
    expect(target.secrets?.[0]).toContain("hand-written");
  });
});
