"use server";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn, signOut } from "@/lib/auth/config";

export type SignInState = {
  ok: false;
  message: string;
  fieldErrors?: { email?: string[]; password?: string[] };
} | null;

const formSchema = z.object({
  email: z.email("Enter the email address you sign in with.").max(320),
  password: z.string().min(1, "Enter your password.").max(1024),
  callbackUrl: z.string().optional(),
});

const messages: Record<string, string> = {
  invalid: "Wrong email or password.",
  locked: "Too many failed attempts: this account is locked for a while. Try again later or ask an admin.",
  disabled: "This account is disabled. Ask an admin.",
};

/** Only same-site paths may be used after sign-in (no open redirect). */
function safeRedirect(target: string | undefined): string {
  return target && target.startsWith("/") && !target.startsWith("//") ? target : "/";
}

export async function signInAction(_prev: SignInState, formData: FormData): Promise<SignInState> {
  const parsed = formSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    return {
      ok: false,
      message: "Check the highlighted fields.",
      fieldErrors: z.flattenError(parsed.error).fieldErrors,
    };
  }
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      redirectTo: safeRedirect(parsed.data.callbackUrl),
    });
    return null;
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code ?? "invalid";
      return { ok: false, message: messages[code] ?? messages.invalid! };
    }
    throw error;
  }
}

const ssoSchema = z.object({ callbackUrl: z.string().max(2000).optional() });

/** Starts single sign-on with the configured OpenID Connect provider. */
export async function ssoSignInAction(formData: FormData): Promise<void> {
  const parsed = ssoSchema.safeParse(Object.fromEntries(formData));
  await signIn("oidc", { redirectTo: safeRedirect(parsed.success ? parsed.data.callbackUrl : undefined) });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}
