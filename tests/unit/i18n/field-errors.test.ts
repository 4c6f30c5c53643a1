// Field names come from input (a record's keys, a form's fields): a name that is also a property of every
// object must get a list of its own, never Object.prototype's method or a new prototype.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addFieldError, wordedFieldErrors, type FieldErrors } from "@/lib/i18n/issues";

describe("addFieldError", () => {
  it("keeps each field's messages in a list of its own, whatever the field is called", () => {
    const errors: FieldErrors = {};
    addFieldError(errors, "amount", "too small");
    addFieldError(errors, "toString", "unknown");
    addFieldError(errors, "__proto__", "unknown");
    addFieldError(errors, "amount", "not a number");
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(Object.keys(errors)).toEqual(["amount", "toString", "__proto__"]);
    expect(errors.amount).toEqual(["too small", "not a number"]);
    expect(Object.getOwnPropertyDescriptor(errors, "toString")?.value).toEqual(["unknown"]);
    expect(Object.getOwnPropertyDescriptor(errors, "__proto__")?.value).toEqual(["unknown"]);
    expect(JSON.parse(JSON.stringify(errors))).toEqual(
      JSON.parse('{"amount":["too small","not a number"],"toString":["unknown"],"__proto__":["unknown"]}'),
    );
  });

  it("words the issues of a record whose keys come from input", () => {
    const parsed = z.record(z.string(), z.number()).safeParse({ toString: "x", constructor: "y" });
    expect(parsed.success).toBe(false);
    const errors = wordedFieldErrors(parsed.error!, () => null);
    expect(Object.keys(errors).sort()).toEqual(["constructor", "toString"]);
    expect(Object.getOwnPropertyDescriptor(errors, "toString")?.value).toHaveLength(1);
  });
});
