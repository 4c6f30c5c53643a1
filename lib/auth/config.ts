import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { checkCredentials } from "@/lib/auth/credentials";
import { ssoUserFor } from "@/lib/auth/sso";
import { getEnv } from "@/lib/env";
import { getLog } from "@/lib/log";

const credentialsSchema = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
});

export class SignInError extends CredentialsSignin {
  constructor(code: "invalid" | "locked" | "disabled") {
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

type PaydeskUser = { paydeskId?: string; sessionVersion?: number };

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: getEnv().AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
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
        return { id, email, name, sessionVersion, paydeskId: id };
      },
    }),
    ...ssoProvider(),
  ],
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== "oidc") return true;
      const mapped = await ssoUserFor(profile?.email ?? user.email);
      if (!mapped) return "/login?error=sso-unknown";
      Object.assign(user, {
        paydeskId: mapped.id,
        sessionVersion: mapped.sessionVersion,
      } satisfies PaydeskUser);
      return true;
    },
    jwt({ token, user }) {
      const signedIn = user as PaydeskUser | undefined;
      if (signedIn?.paydeskId) {
        token.sub = signedIn.paydeskId;
        token.sessionVersion = signedIn.sessionVersion ?? 0;
      }
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: token.sub, sessionVersion: token.sessionVersion };
    },
  },
}));
