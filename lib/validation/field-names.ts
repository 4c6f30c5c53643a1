// The fields whose messages have sentences of their own in messages/<locale>/validation.json. Client-safe.

/** Fields with their own sentences in messages/<locale>/validation.json (`field.<name>`). */
const NAMED_FIELDS = [
  "amount",
  "paymentMethod",
  "bank",
  "recipientNumber",
  "recipientName",
  "webhookUrl",
  "overrideReason",
  "merchantId",
  "comment",
  "clientId",
  "clientIpAddress",
  "clientRegistrationDate",
  "successRedirectUrl",
  "failureRedirectUrl",
  "reference",
  "note",
  "name",
  "viewName",
] as const;
export type FieldName = (typeof NAMED_FIELDS)[number];

/**
 * The catalog name of a field from its name or its English label ("recipient number" and
 * "recipientNumber" are the same field); a field without sentences of its own is worded as "value".
 */
export function fieldKey(label: string): FieldName | "value" {
  const [first = "", ...rest] = label.trim().split(/[\s-]+/);
  const name =
    first.charAt(0).toLowerCase() +
    first.slice(1) +
    rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join("");
  return (NAMED_FIELDS as readonly string[]).includes(name) ? (name as FieldName) : "value";
}

/** The key of one of a field's sentences: `required`, `tooLong` ({maximum}) or `invisible` ({char}). */
export function fieldMessage(label: string, sentence: "required" | "tooLong" | "invisible"): string {
  return `validation.field.${fieldKey(label)}.${sentence}`;
}
