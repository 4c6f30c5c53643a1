import "server-only";
import { audit, type StaffActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { translatorFor } from "@/lib/auth/translator";

/** What a recipient number belongs to, as the audit log names it. */
export type RevealTarget = { type: "operation" | "payoutRequest"; id: string };

export type RevealResult = { ok: true; number: string } | { ok: false; code: "not_found"; message: string };

/**
 * The one way a full recipient number leaves the server: pages carry it masked, and each reveal is
 * written to the audit log (recipient.reveal, naming the operation or pay-out request) before the
 * number is returned; when the entry cannot be written the number is not returned. The calling
 * action has checked recipients.reveal.
 */
export async function revealRecipientNumber(
  actor: StaffActor,
  target: RevealTarget,
  read: (id: string) => Promise<string | null>,
): Promise<RevealResult> {
  const number = await read(target.id);
  if (number === null) {
    return { ok: false, code: "not_found", message: (await translatorFor("recipients"))("notFound") };
  }
  await getDb().$transaction((tx) =>
    audit(tx, actor, { action: "recipient.reveal", targetType: target.type, targetId: target.id }),
  );
  return { ok: true, number };
}
