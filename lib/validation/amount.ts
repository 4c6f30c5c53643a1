/**
 * An amount a person typed, checked for the platform: either decimal separator ("1500,50", "1500.50",
 * "1 500,50"; ambiguous spellings refused, see lib/money/parse-input.ts), greater than zero, at most
 * `decimals` digits after the separator and `integerDigits` before it, never an exponent. The value is
 * the plain decimal string sent on ("1500.5"). Each form words the problem in its own catalog
 * (`payouts.form.amount.<problem>`, `payins.form.amount.<problem>`). Client-safe.
 */
import { z } from "zod";
import { Decimal, WIRE_MAX_DECIMALS } from "@/lib/money/decimal";
import { parseAmountInput } from "@/lib/money/parse-input";

export type AmountProblem =
  "required" | "exponent" | "ambiguous" | "notANumber" | "notPositive" | "tooManyDecimals" | "tooLarge";

export type AmountCheck = { ok: true; value: string } | { ok: false; problem: AmountProblem };

const EXPONENT = /^[+-]?(\d+[.,]?\d*|[.,]\d+)[eE][+-]?\d+$/;

export function checkAmountInput(
  text: string,
  limits: { integerDigits: number; decimals: number },
): AmountCheck {
  const v = text.trim();
  if (v === "") return { ok: false, problem: "required" };
  if (EXPONENT.test(v)) return { ok: false, problem: "exponent" };
  const parsed = parseAmountInput(v);
  if (!parsed.ok) {
    const problem = parsed.reason === "empty" ? "required" : parsed.reason;
    return { ok: false, problem };
  }
  if (parsed.value.startsWith("-")) return { ok: false, problem: "notPositive" };
  const [whole = "", fraction = ""] = parsed.value.split(".");
  if (fraction.length > limits.decimals) return { ok: false, problem: "tooManyDecimals" };
  if (whole.replace(/^0+(?=\d)/, "").length > limits.integerDigits) return { ok: false, problem: "tooLarge" };
  const amount = new Decimal(parsed.value);
  if (!amount.greaterThan(0)) return { ok: false, problem: "notPositive" };
  return { ok: true, value: amount.toFixed() };
}

/**
 * A form's amount field as a zod transform: the plain decimal string with the platform's decimals, or an
 * issue worded `<catalog>.<problem>`.
 */
export function wireAmount(catalog: "payouts.form.amount" | "payins.form.amount", integerDigits: number) {
  return (text: string, ctx: z.RefinementCtx): string => {
    const checked = checkAmountInput(text, { integerDigits, decimals: WIRE_MAX_DECIMALS });
    if (checked.ok) return checked.value;
    ctx.addIssue({
      code: "custom",
      message: `${catalog}.${checked.problem}`,
      params: { decimals: WIRE_MAX_DECIMALS },
    });
    return z.NEVER;
  };
}
