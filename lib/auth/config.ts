import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { cookies } from "next/headers";
import { checkCredentials, type SignInRefusal, type SignInResult } from "@/lib/auth/credentials";
import { safeCallbackPath, safeCallbackUrl } from "@/lib/auth/safe-callback";
import { endSession, resumeSessionRow, startSession, type SecondFactorProof } from "@/lib/auth/session-store";
import { providerMfa, ssoSettings, ssoUserFor } from "@/lib/auth/sso";
import {
  clearChallengeCookie,
  completeChallenge,
  openChallenge,
  setChallengeCookie,
} from "@/lib/auth/two-factor/sign-in";
import { isEnrolled } from "@/lib/auth/two-factor/enrolment";
import { isDatabaseUnavailable } from "@/lib/errors/database";
import { getEnv } from "@/lib/env";
import { getLog } from "@/lib/log";
import { SESSION_LIFETIME_MAX_MINUTES } from "@/lib/settings/settings";

const credentialsSchema = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
});

// The second step of a two-factor sign-in: the challenge's token (from its cookie) and the code.
const codeStepSchema = z.object({
  challenge: z.string().min(1).max(200),
  code: z.string().max(64),
});

/** The first step passed and a code is needed next (the sign-in action sends the browser to it). */
export const SECOND_FACTOR_NEEDED = "second_factor";
/** Where the code is entered. */
export const CODE_STEP_PATH = "/login/two-factor";

export class SignInError extends CredentialsSignin {
  constructor(code: SignInRefusal | typeof SECOND_FACTOR_NEEDED) {
    super();
    this.code = code;
  }
}

/** The generic OpenID Connect provider, when AUTH_OIDC_* are configured (lib/auth/sso.ts). */
function ssoProvider() {
  const settings = ssoSettings();
  if (!settings) return [];
  return [{ id: "oidc", name: "Single sign-on", type: "oidc" as const, ...settings }];
}

export { ssoConfigured } from "@/lib/auth/sso";

type PaydeskUser = { paydeskId?: string; sessionVersion?: number; sid?: string };

/** Opens the server-side session at sign-in; a database out of reach is a sign-in refusal of its own. */
async function openSession(userId: string, proof?: SecondFactorProof): Promise<string> {
  try {
    return await startSession(userId, new Date(), proof);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new SignInError("unavailable");
    throw error;
  }
}

/** A database out of reach during the code step is reported as such, as in the password step. */
async function codeStep(challenge: string, code: string): Promise<SignInResult> {
  try {
    return await completeChallenge(challenge, code);
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { ok: false, reason: "unavailable" };
    throw error;
  }
}

/** Where Auth.js was asked to return after sign-in (its callback-url cookie), as a safe path. */
async function pendingCallbackPath(): Promise<string> {
  const jar = await cookies();
  const url = jar.get("__Secure-authjs.callback-url")?.value ?? jar.get("authjs.callback-url")?.value;
  return safeCallbackPath(url);
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
      credentials: { email: {}, password: {}, challenge: {}, code: {} },
      async authorize(input) {
        // Second step: a session only when the code is right (lib/auth/two-factor/sign-in.ts).
        const step = codeStepSchema.safeParse(input);
        if (step.success) {
          const result = await codeStep(step.data.challenge, step.data.code);
          if (!result.ok) throw new SignInError(result.reason);
          await clearChallengeCookie();
          const { id, email, name, sessionVersion } = result.user;
          const sid = await openSession(id, { secondFactorAt: new Date() });
          return { id, email, name, sessionVersion, paydeskId: id, sid };
        }
        const parsed = credentialsSchema.safeParse(input);
        if (!parsed.success) throw new SignInError("invalid");
        const result = await checkCredentials(parsed.data.email, parsed.data.password);
        if (!result.ok) throw new SignInError(result.reason);
        const { id, email, name, sessionVersion, twoFactorEnrolled } = result.user;
        // The password is right, but an enrolled user's sign-in is not done: no session until the code.
        if (twoFactorEnrolled) {
          await setChallengeCookie(await openChallenge(id));
          throw new SignInError(SECOND_FACTOR_NEEDED);
        }
        return { id, email, name, sessionVersion, paydeskId: id, sid: await openSession(id) };
      },
    }),
    ...ssoProvider(),
  ],
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== "oidc") return true;
      try {
        const mapped = await ssoUserFor(profile?.email ?? user.email, new Date(), profile?.email_verified);
        if (!mapped) return "/login?error=sso-unknown";
        // The identity provider's MFA is a second factor; without it an enrolled user enters a code.
        const mfa = providerMfa(
          profile as { amr?: unknown; auth_time?: unknown } | undefined,
          account.id_token,
        );
        if (!mfa.mfa && (await isEnrolled(mapped.id))) {
          await setChallengeCookie(await openChallenge(mapped.id));
          const back = await pendingCallbackPath();
          return `${CODE_STEP_PATH}?${new URLSearchParams(back === "/" ? {} : { callbackUrl: back })}`;
        }
        Object.assign(user, {
          paydeskId: mapped.id,
          sessionVersion: mapped.sessionVersion,
          sid: await startSession(
            mapped.id,
            new Date(),
            mfa.mfa ? { secondFactorAt: mfa.at, identityProviderMfa: true } : {},
          ),
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
      const session = await resumeSessionRow(token.sid);
      // sessionId names the row (never its token) so the app can read its second-factor state.
      return session.ok && session.userId === token.sub ? { ...token, sessionId: session.sessionId } : null;
    },
    session({ session, token }) {
      return {
        ...session,
        userId: token.sub,
        sessionVersion: token.sessionVersion,
        sessionId: token.sessionId,
      };
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
