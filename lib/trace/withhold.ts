/**
 * What the trace lookup withholds from a viewer, decided here for every way its data leaves (the trace
 * page, the support bundle built from it). Call records are stored whole, but not every reader of a
 * traceID may read all they say:
 *
 * - GET /balance: its answer is the merchant's balance in both currencies. Without `balance.read` the
 *   response body, the platform's message and an error that quotes the answer are withheld.
 *     {"status":"Success","data":{"amountInCurrencyBalance":123456.789,...}}  -> the note
 * - A creation refused with `notEnoughMoneyOnBalance`: its message states the available amount
 *   ("Not enough money on balance: required 150.5 USDT, available 20 USDT"). Without `balance.read` the
 *   message is withheld, in the call's fields and wherever the response body carries it (`message` in
 *   the spec dialect, `result.message` in the nested one); the rest of the body stays.
 *
 * A withheld value is replaced by `note` (the viewer's words for "withheld: needs the balance
 * permission"), so the reader sees that something is there and why it is not shown.
 */
import { can, type Role } from "@/lib/auth/permissions";

/** The platform path of the balance read (lib/platform/client.ts getBalance). */
const BALANCE_PATH = "/balance";
/** The platform's code for a pay-out refused for want of balance (lib/platform/errors.ts). */
const SHORTAGE_CODE = "notenoughmoneyonbalance";

/** The parts of a recorded call the rule reads and may replace. */
export type WithheldCallParts = {
  path: string;
  codeError: string | null;
  httpStatus: number | null;
  message: string | null;
  error: string | null;
  /** The response body as shown (parsed, numbers masked), or null without an answer. */
  response: unknown;
};

/** Whether a viewer of this role may read what a call says about the balance. */
export function mayReadBalance(role: Role | null): boolean {
  return role !== null && can(role, "balance.read");
}

const isBalanceRead = (path: string) =>
  path.split("?")[0]!.replace(/\/+$/, "").toLowerCase() === BALANCE_PATH;

const isShortageRefusal = (codeError: string | null) => codeError?.trim().toLowerCase() === SHORTAGE_CODE;

/** The body with the value of every `message` key (at any depth) replaced by the note. */
function withoutMessages(value: unknown, note: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutMessages(v, note));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
      key,
      key.toLowerCase() === "message" && inner !== null && inner !== "" ? note : withoutMessages(inner, note),
    ]),
  );
}

/**
 * The call's parts as this viewer may see them, and whether anything was withheld. `role` null (the
 * viewer unknown) withholds, as for a role without `balance.read`.
 */
export function withholdBalance<C extends WithheldCallParts>(
  call: C,
  role: Role | null,
  note: string,
): C & { withheld: boolean } {
  if (mayReadBalance(role)) return { ...call, withheld: false };
  if (isBalanceRead(call.path)) {
    // an error recorded after an answer arrived may quote its body (lib/platform/envelope.ts snippet); a
    // timeout's or a refused connection's says nothing of the balance
    const errorQuotes = call.error !== null && call.httpStatus !== null;
    return {
      ...call,
      response: call.response === null ? null : note,
      message: call.message === null ? null : note,
      error: errorQuotes ? note : call.error,
      withheld: call.response !== null || call.message !== null || errorQuotes,
    };
  }
  if (isShortageRefusal(call.codeError)) {
    return {
      ...call,
      response: withoutMessages(call.response, note),
      message: call.message === null ? null : note,
      withheld: true,
    };
  }
  return { ...call, withheld: false };
}
