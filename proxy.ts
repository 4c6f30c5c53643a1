import { NextResponse, type NextRequest } from "next/server";
import { REQUEST_ID_HEADER, newRequestId } from "@/lib/http/request-id";
import { contentSecurityPolicy, newNonce, servedOverHttps } from "@/lib/http/security-headers";

// Runs for every request Next.js serves except its own assets (/_next/). It gives each request an id and each
// page a Content-Security-Policy with a fresh nonce (Next reads the nonce from the request's policy
// header and puts it on its scripts), and redirects visitors without a session cookie to sign-in.
// The redirect is only a convenience: every page, action and route handler checks the session and
// the permission itself. The other security headers are set by scripts/server.ts on every response.
const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
// Paths the sign-in redirect leaves alone (the same as the proxy's matcher before it set headers).
const NO_SIGN_IN_REDIRECT = /^\/(?:login|forbidden|api\/|_next\/|favicon.ico|icon.svg|__sandbox)/;

export function proxy(request: NextRequest) {
  const requestId = newRequestId();
  const policy = contentSecurityPolicy({
    nonce: newNonce(),
    dev: process.env.NODE_ENV === "development",
    https: servedOverHttps({
      requestProtocol: request.nextUrl.protocol,
      forwardedProto: request.headers.get("x-forwarded-proto"),
    }),
  });

  const response = needsSignIn(request)
    ? NextResponse.redirect(signInUrl(request))
    : NextResponse.next({ request: { headers: forwardedHeaders(request, requestId, policy) } });
  response.headers.set(REQUEST_ID_HEADER, requestId);
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

function needsSignIn(request: NextRequest): boolean {
  if (NO_SIGN_IN_REDIRECT.test(request.nextUrl.pathname)) return false;
  return !SESSION_COOKIES.some((name) => request.cookies.has(name));
}

function signInUrl(request: NextRequest): URL {
  const login = new URL("/login", request.url);
  const target = request.nextUrl.pathname + request.nextUrl.search;
  if (target !== "/") login.searchParams.set("callbackUrl", target);
  return login;
}

/** The request as the app sees it: our id (never the client's) and the policy whose nonce Next uses. */
function forwardedHeaders(request: NextRequest, requestId: string, policy: string): Headers {
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  headers.set("Content-Security-Policy", policy);
  return headers;
}

export const config = {
  matcher: ["/((?!_next/|favicon.ico).*)"],
};
