/**
 * `target[key] = value`, except that a "__proto__" key becomes an own property like any other: assigned,
 * it would set the object's prototype instead (and vanish from its JSON). For keys that come from input.
 */
export function setOwnProperty<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
