/**
 * A fake Google OAuth 2.0 token endpoint for tests (`POST /token`, as a service-account key's `token_uri`
 * names it): it takes the JWT-bearer grant (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`,
 * `assertion=<RS256 JWT>`), checks the assertion's signature with the service account's public key, and
 * issues a hand-written access token. Every exchange is recorded with the assertion's claims.
 */
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One token request as the endpoint saw it. */
export interface TokenExchange {
  grantType: string | null;
  /** The assertion's header and claims (`iss`, `scope`, `aud`, `iat`, `exp`), decoded. */
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** Whether the assertion's signature verified against the service account's public key. */
  signatureValid: boolean;
  /** The access token issued, or null when the request was refused. */
  issued: string | null;
}

/** A running fake token endpoint. */
export interface GoogleOAuthTestServer {
  /** `http://127.0.0.1:<port>/token`: the `token_uri` to write into a service-account key. */
  readonly tokenUri: string;
  readonly exchanges: TokenExchange[];
  close(): Promise<void>;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

const decodePart = (part: string | undefined): Record<string, unknown> => {
  try {
    return JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
};

function readAssertion(assertion: string, publicKey: KeyObject) {
  const [header, claims, signature] = assertion.split(".");
  const signatureValid =
    signature !== undefined &&
    verify("RSA-SHA256", Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, "base64url"));
  return { header: decodePart(header), claims: decodePart(claims), signatureValid };
}

/**
 * Starts a fake token endpoint trusting `publicKeyPem` (the service account's key). A valid JWT-bearer request
 * gets `{access_token: "ya29.hand-written-test-token-<n>", expires_in: 3600, token_type: "Bearer"}`; any other
 * gets a 400 `invalid_grant`.
 */
export async function startGoogleOAuthServer(publicKeyPem: string): Promise<GoogleOAuthTestServer> {
  const publicKey = createPublicKey(publicKeyPem);
  const exchanges: TokenExchange[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || req.url !== "/token") {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: "not_found" }));
    }
    const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    const grantType = form.get("grant_type");
    const assertion = readAssertion(form.get("assertion") ?? "", publicKey);
    const ok = grantType === JWT_BEARER && assertion.signatureValid;
    const issued = ok ? `ya29.hand-written-test-token-${exchanges.length + 1}` : null;
    exchanges.push({ grantType, ...assertion, issued });
    res.writeHead(ok ? 200 : 400, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        ok
          ? { access_token: issued, expires_in: 3600, token_type: "Bearer" }
          : { error: "invalid_grant", error_description: "Invalid JWT Signature." },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tokenUri: `http://127.0.0.1:${port}/token`,
    exchanges,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
