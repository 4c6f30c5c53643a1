import { NextResponse, type NextRequest } from "next/server";

// Only a convenience redirect for visitors without a session cookie. Every page, action and route
// handler checks the session and the permission itself.
const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

export function proxy(request: NextRequest) {
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const login = new URL("/login", request.url);
  const target = request.nextUrl.pathname + request.nextUrl.search;
  if (target !== "/") login.searchParams.set("callbackUrl", target);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: ["/((?!login|forbidden|api/|_next/|favicon.ico|__sandbox).*)"],
};
