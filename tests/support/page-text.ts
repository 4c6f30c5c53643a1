// The text a page's returned element tree carries (children, error lists, props), without rendering it:
// enough to see that a page answered a bad filter with its message instead of throwing.
import { isValidElement } from "react";

export function pageText(node: unknown, depth = 0): string[] {
  if (depth > 60 || node === null || node === undefined || typeof node === "function") return [];
  if (typeof node === "string") return [node];
  if (typeof node === "number") return [String(node)];
  if (Array.isArray(node)) return node.flatMap((n) => pageText(n, depth + 1));
  if (isValidElement(node)) return pageText(node.props, depth + 1);
  if (typeof node === "object" && Object.getPrototypeOf(node) === Object.prototype) {
    return Object.values(node).flatMap((v) => pageText(v, depth + 1));
  }
  return [];
}

/** The props of every element of the given component in the tree (e.g. what a table was given). */
export function propsOf<P>(node: unknown, component: unknown, depth = 0): P[] {
  if (depth > 60 || node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap((n) => propsOf<P>(n, component, depth + 1));
  if (isValidElement(node)) {
    const own = node.type === component ? [node.props as P] : [];
    return [...own, ...propsOf<P>(node.props, component, depth + 1)];
  }
  if (Object.getPrototypeOf(node) === Object.prototype) {
    return Object.values(node).flatMap((v) => propsOf<P>(v, component, depth + 1));
  }
  return [];
}
