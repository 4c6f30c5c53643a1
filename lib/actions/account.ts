"use server";
import { authorizedAction } from "@/lib/auth/action";
import { LOCK_AFTER_FAILURES, LOCK_MINUTES } from "@/lib/auth/lock-policy";
import { translatorFor } from "@/lib/auth/translator";
import { getLog } from "@/lib/log";
import { changeOwnPasswordFormSchema } from "@/lib/users/schemas";
import { changeOwnPassword, type PasswordChangeRefusal } from "@/lib/users/service";

export type ChangePasswordFailure = {
  ok: false;
  code: PasswordChangeRefusal | "failed";
  message: string;
  fieldErrors: Record<string, string[] | undefined>;
};

/**
 * The signed-in user changes their own password with the current one (account.password). Every
 * session of theirs ends, this one included, and the page sends them to sign in again (`signInAgain`).
 * Why not keep this session going: the session cookie carries the session version the change moves
 * on, so keeping it would mean issuing a new cookie from here, a second way into a session beside
 * sign-in; and whoever changes a password because they fear someone else has it wants every session
 * gone, including a copy of this one's cookie. Signing in again also proves the new password (and the
 * second factor) at once, while the user still remembers what they typed.
 */
export const changeOwnPasswordAction = authorizedAction(
  "account.password",
  changeOwnPasswordFormSchema,
  async (input, { actor }): Promise<{ ok: true; signInAgain: true } | ChangePasswordFailure> => {
    const t = await translatorFor("account");
    try {
      const changed = await changeOwnPassword(actor, input.current, input.next);
      if (changed.ok) return { ok: true, signInAgain: true };
      const message = t(`password.errors.${changed.code}`, {
        attempts: LOCK_AFTER_FAILURES,
        minutes: LOCK_MINUTES,
      });
      // A wrong current password is that field's error; the others are about the account.
      const fieldErrors = changed.code === "wrongCurrent" ? { current: [message] } : {};
      return { ok: false, code: changed.code, message, fieldErrors };
    } catch (error) {
      getLog().error({ err: error }, "password change failed");
      return { ok: false, code: "failed", message: t("password.errors.failed"), fieldErrors: {} };
    }
  },
);
