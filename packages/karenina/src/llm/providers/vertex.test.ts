/**
 * Where a Vertex model's calls go and how they are authorised, from its settings and the environment (the
 * calls themselves are tested over HTTP in pipeline/config/vertex-provider.test.ts).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AdapterUnavailableError } from "../errors.js";
import { vertexBaseUrl, vertexConnection, vertexSecrets } from "./vertex.js";

let dir: string;
let serviceAccount: string;
let userCredentials: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-vertex-unit-"));
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
  // gcloud's application default credentials, under a CLOUDSDK_CONFIG directory.
  userCredentials = join(dir, "application_default_credentials.json");
  await writeFile(
    userCredentials,
    JSON.stringify({ type: "authorized_user", client_id: "c", client_secret: "s", refresh_token: "r" }),
  );
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const failure = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("no error");
};

describe("vertexBaseUrl", () => {
  test.each([
    [
      { project: "p", location: "us-central1" },
      "https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p/locations/us-central1/publishers/google",
    ],
    [
      { project: "p", location: "global" },
      "https://aiplatform.googleapis.com/v1beta1/projects/p/locations/global/publishers/google",
    ],
    [
      { project: "p", location: "eu" },
      "https://aiplatform.eu.rep.googleapis.com/v1beta1/projects/p/locations/eu/publishers/google",
    ],
    [{ project: null, location: "us-central1" }, "https://aiplatform.googleapis.com/v1/publishers/google"],
    [
      { given: "http://127.0.0.1:9/", project: "p", location: "europe-west4" },
      "http://127.0.0.1:9/v1beta1/projects/p/locations/europe-west4/publishers/google",
    ],
    [
      { given: "https://proxy.example/v1", project: "p", location: "us-east5" },
      "https://proxy.example/v1/projects/p/locations/us-east5/publishers/google",
    ],
    [
      { given: "http://127.0.0.1:9", project: null, location: "x" },
      "http://127.0.0.1:9/v1/publishers/google",
    ],
    [
      { given: "https://gw.example/vertex/publishers/google/", project: "p", location: "x" },
      "https://gw.example/vertex/publishers/google",
    ],
  ])("%o → %s", (where, expected) => {
    expect(vertexBaseUrl(where)).toBe(expected);
  });
});

describe("vertexConnection", () => {
  const base = { modelName: "gemini-2.5-flash" };

  test("location: GOOGLE_VERTEX_LOCATION, then GOOGLE_CLOUD_LOCATION, else us-central1", () => {
    const env = { GOOGLE_APPLICATION_CREDENTIALS: serviceAccount };
    expect(vertexConnection({ ...base, env }).location).toBe("us-central1");
    expect(vertexConnection({ ...base, env: { ...env, GOOGLE_CLOUD_LOCATION: "asia-east1" } }).location).toBe(
      "asia-east1",
    );
    expect(
      vertexConnection({
        ...base,
        env: { ...env, GOOGLE_CLOUD_LOCATION: "asia-east1", GOOGLE_VERTEX_LOCATION: "europe-west4" },
      }).location,
    ).toBe("europe-west4");
    expect(vertexConnection({ ...base, location: "us-east5", env }).location).toBe("us-east5");
  });

  test("project: GOOGLE_VERTEX_PROJECT, then GOOGLE_CLOUD_PROJECT, then the key file's project_id", () => {
    const env = { GOOGLE_APPLICATION_CREDENTIALS: serviceAccount };
    expect(vertexConnection({ ...base, env }).project).toBe("from-key-file");
    expect(vertexConnection({ ...base, env: { ...env, GOOGLE_CLOUD_PROJECT: "cloud" } }).project).toBe(
      "cloud",
    );
    expect(
      vertexConnection({
        ...base,
        env: { ...env, GOOGLE_CLOUD_PROJECT: "cloud", GOOGLE_VERTEX_PROJECT: "vx" },
      }).project,
    ).toBe("vx");
  });

  test("a service-account key is read when the connection is made; its private key is kept out of messages", () => {
    const connection = vertexConnection({ ...base, env: { GOOGLE_APPLICATION_CREDENTIALS: serviceAccount } });
    expect(connection.auth).toMatchObject({
      kind: "credentials-file",
      path: serviceAccount,
      credentials: { type: "service_account" },
    });
    expect(vertexSecrets(connection)[0]).toContain("hand-written");
  });

  test("gcloud's application default credentials (CLOUDSDK_CONFIG) are used, and without a project they fail naming the variable", () => {
    const env = { CLOUDSDK_CONFIG: dir };
    const error = failure(() => vertexConnection({ ...base, env }));
    expect(error).toBeInstanceOf(AdapterUnavailableError);
    expect(error.message).toMatch(/GOOGLE_VERTEX_PROJECT \(or GOOGLE_CLOUD_PROJECT\)/);
    const connection = vertexConnection({ ...base, env: { ...env, GOOGLE_CLOUD_PROJECT: "p" } });
    expect(connection.auth).toMatchObject({ kind: "credentials-file", path: userCredentials });
  });

  test("an API key is express mode: no project, no credentials file read", () => {
    const connection = vertexConnection({
      ...base,
      env: { GOOGLE_VERTEX_API_KEY: "k", GOOGLE_APPLICATION_CREDENTIALS: join(dir, "absent.json") },
    });
    expect(connection).toMatchObject({ auth: { kind: "api-key", apiKey: "k" }, project: null });
    expect(vertexSecrets(connection)).toEqual(["k"]);
  });

  test("the metadata server is used only when the environment says it is there", () => {
    const env = { HOME: dir, GOOGLE_CLOUD_PROJECT: "p" };
    expect(failure(() => vertexConnection({ ...base, env })).message).toMatch(
      /METADATA_SERVER_DETECTION=assume-present/,
    );
    expect(
      vertexConnection({ ...base, env: { ...env, METADATA_SERVER_DETECTION: "assume-present" } }).auth,
    ).toEqual({ kind: "metadata-server" });
    expect(vertexConnection({ ...base, env: { ...env, K_SERVICE: "judge" } }).auth).toEqual({
      kind: "metadata-server",
    });
    expect(() =>
      vertexConnection({ ...base, env: { ...env, K_SERVICE: "judge", METADATA_SERVER_DETECTION: "none" } }),
    ).toThrow(AdapterUnavailableError);
  });

  test("a credentials file that is not JSON, or not credentials, fails naming it", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, "not json");
    const notCredentials = join(dir, "other.json");
    await writeFile(notCredentials, JSON.stringify({ hello: "world" }));
    for (const file of [broken, notCredentials]) {
      const error = failure(() =>
        vertexConnection({ ...base, env: { GOOGLE_APPLICATION_CREDENTIALS: file } }),
      );
      expect(error).toBeInstanceOf(AdapterUnavailableError);
      expect(error.message).toContain(file);
    }
  });
});
