"use server";
import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import { z } from "zod";
import { CODE_STEP_PATH, SECOND_FACTOR_NEEDED, signIn, signOut } from "@/lib/auth/config";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import {
  isSignInCode,
  signInMessageKey,
  signInMessageValues,
  type SignInCode,
} from "@/lib/auth/sign-in-messages";
import { isDatabaseUnavailable } from "@/lib/errors/database";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { parseLocalized } from "@/lib/i18n/validation";

export type SignInState = {
  ok: false;
  code: SignInCode | "fields";
  message: string;
  fieldErrors?: { email?: string[]; password?: string[] };
} | null;

const formSchema = z.object({
  email: z.email("auth.signIn.emailRequired").max(320),
  password: z.string().min(1, "auth.signIn.passwordRequired").max(1024),
  callbackUrl: z.string().optional(),
});

/** The refusal's code: ours from the credentials check, else "unavailable" or a generic failure. */
function refusalCode(error: AuthError): SignInCode {
  const code = error instanceof CredentialsSignin ? error.code : undefined;
  if (isSignInCode(code)) return code;
  return isDatabaseUnavailable(error) ? "unavailable" : "failed";
}

export async function signInAction(_prev: SignInState, formData: FormData): Promise<SignInState> {
  const parsed = parseLocalized(
    formSchema,
    Object.fromEntries(formData),
    (await requestPreferences()).locale,
  );
  if (!parsed.success) {
    const t = await translatorFor("common");
    return { ok: false, code: "fields", message: t("checkFields"), fieldErrors: parsed.fieldErrors };
  }
  const redirectTo = safeCallbackPath(parsed.data.callbackUrl);
  try {
    await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirectTo });
    return null;
  } catch (error) {
    // The password was right and the user has two-factor: on to the code (lib/auth/two-factor/sign-in.ts).
    if (error instanceof CredentialsSignin && error.code === SECOND_FACTOR_NEEDED) {
      redirect(
        `${CODE_STEP_PATH}?${new URLSearchParams(redirectTo === "/" ? {} : { callbackUrl: redirectTo })}`,
      );
    }
    if (error instanceof AuthError) {
      const code = refusalCode(error);
      const t = await translatorFor("auth");
      return { ok: false, code, message: t(signInMessageKey(code), signInMessageValues) };
    }
    throw error;
  }
}

const ssoSchema = z.object({ callbackUrl: z.string().max(2000).optional() });

/** Starts single sign-on with the configured OpenID Connect provider. */
export async function ssoSignInAction(formData: FormData): Promise<void> {
  const parsed = ssoSchema.safeParse(Object.fromEntries(formData));
  await signIn("oidc", {
    redirectTo: safeCallbackPath(parsed.success ? parsed.data.callbackUrl : undefined),
  });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}
