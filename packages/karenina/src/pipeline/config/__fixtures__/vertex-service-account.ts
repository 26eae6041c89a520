/**
 * A Google service account for the Vertex provider tests: an RSA key made here, a fake OAuth token endpoint on
 * 127.0.0.1 that verifies the JWT-bearer grants signed with it, and a key file whose `token_uri` points there.
 * While the file's tests run, the metadata server is switched off for google-auth-library and no credentials
 * of the machine are read. Every value here is hand-written test data.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, vi } from "vitest";
import {
  type GoogleOAuthTestServer,
  startGoogleOAuthServer,
} from "../../../test-support/provider-servers/google-oauth-server.js";

/** The project of the test service account. */
export const TEST_PROJECT = "karenina-test";
export const TEST_CLIENT_EMAIL = `judge@${TEST_PROJECT}.iam.gserviceaccount.com`;

/** The service account of a test file, ready inside its tests. */
export interface TestServiceAccount {
  /** A temporary folder of the file's tests (the key file is in it), removed after them. */
  readonly dir: string;
  /** The key file (`GOOGLE_APPLICATION_CREDENTIALS`). */
  readonly keyFile: string;
  readonly oauth: GoogleOAuthTestServer;
  /** The environment of a service-account run in `location`: the key file, the project and the location. */
  env(location: string): Record<string, string>;
  /** The tokens the fake endpoint issued so far (null for a grant it refused). */
  issuedTokens(): (string | null)[];
}

/** Registers the hooks that make the service account before the file's tests and remove it after them. */
export function testServiceAccount(): TestServiceAccount {
  let dir = "";
  let oauth: GoogleOAuthTestServer | undefined;
  let keyFile = "";
  beforeAll(async () => {
    // google-auth-library (gcp-metadata) reads these: never look for a metadata server during the tests.
    vi.stubEnv("METADATA_SERVER_DETECTION", "none");
    vi.stubEnv("GCE_METADATA_HOST", "127.0.0.1:1");
    vi.stubEnv("GOOGLE_APPLICATION_CREDENTIALS", "");
    dir = await mkdtemp(join(tmpdir(), "karenina-vertex-"));
    const { privateKey, publicKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    oauth = await startGoogleOAuthServer(publicKey);
    keyFile = join(dir, "service-account.json");
    await writeFile(
      keyFile,
      JSON.stringify({
        type: "service_account",
        project_id: TEST_PROJECT,
        private_key_id: "hand-written-test-key-1",
        private_key: privateKey,
        client_email: TEST_CLIENT_EMAIL,
        client_id: "100000000000000000001",
        token_uri: oauth.tokenUri,
        universe_domain: "googleapis.com",
      }),
    );
  });
  afterAll(async () => {
    await oauth?.close();
    await rm(dir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });
  const server = (): GoogleOAuthTestServer => {
    if (oauth === undefined) throw new Error("the test service account exists only inside the file's tests");
    return oauth;
  };
  return {
    get dir() {
      return dir;
    },
    get keyFile() {
      return keyFile;
    },
    get oauth() {
      return server();
    },
    env: (location) => ({
      GOOGLE_APPLICATION_CREDENTIALS: keyFile,
      GOOGLE_CLOUD_PROJECT: TEST_PROJECT,
      GOOGLE_CLOUD_LOCATION: location,
    }),
    issuedTokens: () => server().exchanges.map((exchange) => exchange.issued),
  };
}
