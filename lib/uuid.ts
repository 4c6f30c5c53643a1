const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its usual text form, in either case (operation ids, traceIDs, user ids). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
