import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { checkCredentials, type SignInRefusal } from "@/lib/auth/credentials";
import { safeCallbackUrl } from "@/lib/auth/safe-callback";
import { endSession, resumeSession, startSession } from "@/lib/auth/session-store";
import { ssoUserFor } from "@/lib/auth/sso";
import { isDatabaseUnavailable } from "@/lib/errors/database";
import { getEnv } from "@/lib/env";
import { getLog } from "@/lib/log";
import { SESSION_LIFETIME_MAX_MINUTES } from "@/lib/settings/settings";

const credentialsSchema = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
});

export class SignInError extends CredentialsSignin {
  constructor(code: SignInRefusal) {
    super();
    this.code = code;
  }
}

/** The generic OpenID Connect provider, when AUTH_OIDC_* are configured. */
function ssoProvider() {
  const env = getEnv();
  if (!env.AUTH_OIDC_ISSUER || !env.AUTH_OIDC_CLIENT_ID || !env.AUTH_OIDC_CLIENT_SECRET) return [];
  return [
    {
      id: "oidc",
      name: "Single sign-on",
      type: "oidc" as const,
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_CLIENT_ID,
      clientSecret: env.AUTH_OIDC_CLIENT_SECRET,
    },
  ];
}

export function ssoConfigured(): boolean {
  return ssoProvider().length > 0;
}

type PaydeskUser = { paydeskId?: string; sessionVersion?: number; sid?: string };

/** Opens the server-side session at sign-in; a database out of reach is a sign-in refusal of its own. */
async function openSession(userId: string): Promise<string> {
  try {
    return await startSession(userId);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new SignInError("unavailable");
    throw error;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: getEnv().AUTH_SECRET,
  trustHost: true,
  // The cookie may live as long as the longest lifetime an admin can set; the lifetime and idle timeout
  // in force are checked on the server on every request (lib/auth/session-store.ts).
  session: { strategy: "jwt", maxAge: SESSION_LIFETIME_MAX_MINUTES * 60 },
  pages: { signIn: "/login" },
  logger: {
    // A refused sign-in is an expected outcome shown to the user, not an error to log with a stack.
    error: (error) => {
      // `type`, not `name`: class names do not survive minification in the production build.
      if ((error as { type?: string }).type !== "CredentialsSignin")
        getLog().error({ err: error }, "auth error");
    },
    warn: (code) => getLog().warn({ code }, "auth warning"),
    debug: () => {},
  },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(input) {
        const parsed = credentialsSchema.safeParse(input);
        if (!parsed.success) throw new SignInError("invalid");
        const result = await checkCredentials(parsed.data.email, parsed.data.password);
        if (!result.ok) throw new SignInError(result.reason);
        const { id, email, name, sessionVersion } = result.user;
        return { id, email, name, sessionVersion, paydeskId: id, sid: await openSession(id) };
      },
    }),
    ...ssoProvider(),
  ],
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== "oidc") return true;
      try {
        const mapped = await ssoUserFor(profile?.email ?? user.email);
        if (!mapped) return "/login?error=sso-unknown";
        Object.assign(user, {
          paydeskId: mapped.id,
          sessionVersion: mapped.sessionVersion,
          sid: await startSession(mapped.id),
        } satisfies PaydeskUser);
        return true;
      } catch (error) {
        if (isDatabaseUnavailable(error)) return "/login?error=unavailable";
        throw error;
      }
    },
    redirect: safeCallbackUrl,
    // Runs at sign-in (with the user) and on every `auth()`: a token whose server-side session has
    // ended (signed out, expired, idle, user disabled) gives no session.
    async jwt({ token, user }) {
      const signedIn = user as PaydeskUser | undefined;
      if (signedIn?.paydeskId && signedIn.sid) {
        token.sub = signedIn.paydeskId;
        token.sessionVersion = signedIn.sessionVersion ?? 0;
        token.sid = signedIn.sid;
        return token;
      }
      const session = await resumeSession(token.sid);
      return session.ok && session.userId === token.sub ? token : null;
    },
    session({ session, token }) {
      return { ...session, userId: token.sub, sessionVersion: token.sessionVersion };
    },
  },
  events: {
    // Called by Auth.js on the server for the sign-out action and POST /api/auth/signout, with the
    // decoded cookie: the session row goes, so a copy of the cookie no longer works.
    async signOut(message) {
      if ("token" in message) await endSession(message.token?.sid);
    },
  },
}));
