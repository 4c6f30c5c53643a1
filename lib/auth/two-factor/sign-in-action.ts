"use server";
import { AuthError, CredentialsSignin } from "next-auth";
import { z } from "zod";
import { signIn } from "@/lib/auth/config";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { isDatabaseUnavailable } from "@/lib/errors/database";
import { translatorFor } from "@/lib/auth/translator";
import { signInMessageValues } from "@/lib/auth/sign-in-messages";
import { readChallengeCookie } from "./sign-in";

export type CodeStepState = {
  ok: false;
  code: "invalid" | "disabled" | "unavailable";
  message: string;
} | null;

const formSchema = z.object({
  code: z.string().max(64).default(""),
  callbackUrl: z.string().max(2048).optional(),
});

const refusals = ["invalid", "disabled", "unavailable"] as const;
type Refusal = (typeof refusals)[number];

function refusalOf(error: AuthError): Refusal {
  const code = error instanceof CredentialsSignin ? error.code : undefined;
  if ((refusals as readonly string[]).includes(code ?? "")) return code as Refusal;
  return isDatabaseUnavailable(error) ? "unavailable" : "invalid";
}

/**
 * The sign-in's second step: the code (or a recovery code) with the challenge from its cookie, through
 * the Auth.js credentials provider; a session only when it is right (lib/auth/two-factor/sign-in.ts).
 */
export async function signInCodeAction(_prev: CodeStepState, formData: FormData): Promise<CodeStepState> {
  const parsed = formSchema.safeParse(Object.fromEntries(formData));
  const t = await translatorFor("twoFactor");
  const code = parsed.success ? parsed.data.code : "";
  const challenge = (await readChallengeCookie()) ?? "expired";
  try {
    await signIn("credentials", {
      challenge,
      code,
      redirectTo: safeCallbackPath(parsed.success ? parsed.data.callbackUrl : undefined),
    });
    return null;
  } catch (error) {
    if (error instanceof AuthError) {
      const refusal = refusalOf(error);
      return { ok: false, code: refusal, message: t(`signIn.refusals.${refusal}`, signInMessageValues) };
    }
    throw error;
  }
}

const ssoSchema = z.object({ callbackUrl: z.string().max(2048).optional() });

/**
 * Step-up for a single sign-on user without Paydesk codes: signing in again at the identity provider,
 * which must ask again (`prompt=login`, `max_age=0`); its MFA then counts from that moment, the id token's
 * `auth_time` (a token without one proves no fresh sign-in: lib/auth/sso.ts, providerMfa).
 */
export async function ssoStepUpAction(formData: FormData): Promise<void> {
  const parsed = ssoSchema.safeParse(Object.fromEntries(formData));
  await signIn(
    "oidc",
    { redirectTo: safeCallbackPath(parsed.success ? parsed.data.callbackUrl : undefined) },
    { prompt: "login", max_age: "0" },
  );
}
