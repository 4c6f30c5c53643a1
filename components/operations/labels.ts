// The words for operation statuses, types and payment methods (the `statuses` namespace). Client-safe:
// the badge and the table cells use them in the browser, pages on the server.
import type { useTranslations } from "next-intl";
import { OperationStatus, type OperationType } from "@/lib/generated/prisma/enums";
import {
  AZN_METHODS,
  isMonoBankMethod,
  KNOWN_MONO_BANK_METHODS,
  KZT_METHODS,
  normalisePaymentMethod,
  RUB_METHODS,
} from "@/lib/platform/payment-methods";

export type StatusesTranslator = ReturnType<typeof useTranslations<"statuses">>;

/** Every method with a name of its own in the catalogs (a mono-bank pair not listed reads as its bank code). */
export const LABELLED_METHODS = [...RUB_METHODS, ...KZT_METHODS, ...AZN_METHODS, ...KNOWN_MONO_BANK_METHODS];
type LabelledMethod = (typeof LABELLED_METHODS)[number];

const labelled = new Set<string>(LABELLED_METHODS);
const isLabelled = (method: string): method is LabelledMethod => labelled.has(method);

export function statusLabel(t: StatusesTranslator, status: OperationStatus): string {
  return t(`operationStatus.${status}`);
}

/** A status as the platform or a stored row gave it: its name when it is one of ours, else as given. */
export function anyStatusLabel(t: StatusesTranslator, status: string): string {
  return Object.hasOwn(OperationStatus, status) ? statusLabel(t, status as OperationStatus) : status;
}

/** "pay-in" / «платёж», for running text and table cells. */
export function typeLabel(t: StatusesTranslator, type: OperationType): string {
  return t(`operationType.${type}`);
}

/** "Pay-in" / «Платёж», for headings and choices. */
export function typeTitle(t: StatusesTranslator, type: OperationType): string {
  return t(`operationTypeTitle.${type}`);
}

/** sbp → «СБП», toCard → «На карту», a mono-bank pair by its bank; a method we do not know as given. */
export function paymentMethodLabel(t: StatusesTranslator, method: string): string {
  const known = normalisePaymentMethod(method);
  if (known === null) return method;
  if (isLabelled(known)) return t(`paymentMethod.${known}`);
  return isMonoBankMethod(known) ? t("otherMonoBankMethod", { method: known }) : method;
}
