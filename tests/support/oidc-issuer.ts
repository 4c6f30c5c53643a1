// A minimal OpenID Connect identity provider on 127.0.0.1 for the single sign-on tests: discovery, an
// authorization code that the test mints itself (no login page), the token endpoint answering with an
// RS256-signed ID token whose claims the test chooses, JWKS and a userinfo endpoint.
import { createSign, generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type IdClaims = {
  email?: string;
  name?: string;
  /** RFC 8176 authentication methods ("mfa", "otp"...) and the sign-in moment, as the test wants them. */
  amr?: string[];
  auth_time?: unknown;
};

export type OidcIssuer = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A code the token endpoint exchanges for an ID token with these claims (and the given nonce). */
  codeFor(claims: IdClaims, nonce?: string | null): string;
  /** Client authentications the token endpoint saw, decoded ("id:secret"). */
  tokenRequests: string[];
  close(): Promise<void>;
};

const b64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

export async function startOidcIssuer(): Promise<OidcIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = randomUUID();
  const clientId = "paydesk-test";
  const clientSecret = "paydesk-test-secret";
  const codes = new Map<string, { claims: IdClaims; nonce?: string | null }>();
  const tokenRequests: string[] = [];
  let issuer = "";

  function idToken(claims: IdClaims, nonce?: string | null): string {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid }));
    const payload = b64url(
      JSON.stringify({
        iss: issuer,
        aud: clientId,
        sub: `idp-${randomUUID()}`,
        iat: now,
        exp: now + 300,
        ...(nonce ? { nonce } : {}),
        ...claims,
      }),
    );
    const signature = createSign("RSA-SHA256").update(`${header}.${payload}`).sign(privateKey);
    return `${header}.${payload}.${b64url(signature)}`;
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname.endsWith("/.well-known/openid-configuration")) {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (url.pathname.endsWith("/jwks")) {
      return json(200, { keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] });
    }
    if (url.pathname.endsWith("/userinfo")) return json(200, {});
    if (url.pathname.endsWith("/token") && req.method === "POST") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const basic = (req.headers.authorization ?? "").replace(/^Basic /, "");
        tokenRequests.push(Buffer.from(basic, "base64").toString());
        const code = new URLSearchParams(body).get("code") ?? "";
        const grant = codes.get(code);
        codes.delete(code);
        if (!grant) return json(400, { error: "invalid_grant" });
        json(200, {
          access_token: randomUUID(),
          token_type: "Bearer",
          expires_in: 300,
          id_token: idToken(grant.claims, grant.nonce),
        });
      });
      return;
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/staff`;

  return {
    issuer,
    clientId,
    clientSecret,
    tokenRequests,
    codeFor(claims, nonce) {
      const code = randomUUID();
      codes.set(code, { claims, nonce });
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
