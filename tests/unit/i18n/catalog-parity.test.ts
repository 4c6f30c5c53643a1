// The two catalogs say the same things: the same namespaces, the same keys, the same ICU arguments per
// key, every message valid ICU, and Russian plurals with their three forms (1 операция, 2 операции,
// 5 операций).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, test } from "vitest";

const root = path.join(process.cwd(), "messages");
const read = (locale: string) =>
  Object.fromEntries(
    readdirSync(path.join(root, locale))
      .filter((f) => f.endsWith(".json"))
      .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(path.join(root, locale, f), "utf8")) as unknown]),
  );

function flatten(value: unknown, prefix = ""): Record<string, string> {
  if (typeof value === "string") return { [prefix]: value };
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${prefix}: a message is a string or an object of messages`);
  }
  return Object.assign(
    {},
    ...Object.entries(value).map(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k)),
  ) as Record<string, string>;
}

type Shape = { args: string[]; plurals: Record<string, string[]> };

function shapeOf(elements: MessageFormatElement[], shape: Shape = { args: [], plurals: {} }): Shape {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    shape.args.push(`${el.value}:${TYPE[el.type]}`);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      if (el.type === TYPE.plural) shape.plurals[el.value] = Object.keys(el.options).sort();
      for (const option of Object.values(el.options)) shapeOf(option.value, shape);
    }
    if (el.type === TYPE.tag) shapeOf(el.children, shape);
  }
  return shape;
}

const argsOf = (message: string) => [...new Set(shapeOf(parse(message)).args)].sort();

const ru = flatten(read("ru"));
const en = flatten(read("en"));

describe("the ru and en catalogs", () => {
  test("have the same namespaces", () => {
    expect(Object.keys(read("ru")).sort()).toEqual(Object.keys(read("en")).sort());
  });

  test("have exactly the same keys", () => {
    const missingInRu = Object.keys(en).filter((k) => !(k in ru));
    const missingInEn = Object.keys(ru).filter((k) => !(k in en));
    expect({ missingInRu, missingInEn }).toEqual({ missingInRu: [], missingInEn: [] });
  });

  test("every message is valid ICU and takes the same arguments in both languages", () => {
    const different = Object.keys(en)
      .filter((key) => key in ru)
      .filter((key) => JSON.stringify(argsOf(en[key]!)) !== JSON.stringify(argsOf(ru[key]!)))
      .map((key) => `${key}: en ${argsOf(en[key]!).join(",")} / ru ${argsOf(ru[key]!).join(",")}`);
    expect(different).toEqual([]);
  });

  test("Russian plurals have the forms one, few and many", () => {
    const incomplete = Object.entries(ru).flatMap(([key, message]) =>
      Object.entries(shapeOf(parse(message)).plurals)
        .filter(([, forms]) => !["one", "few", "many"].every((f) => forms.includes(f)))
        .map(([arg]) => `${key} {${arg}}`),
    );
    expect(incomplete).toEqual([]);
  });

  test("no message is empty or left untranslated by accident (same Cyrillic-free text in ru)", () => {
    expect(Object.entries(en).filter(([, m]) => m.trim() === "")).toEqual([]);
    const suspicious = Object.entries(ru)
      .filter(([key, m]) => /[A-Za-z]{4,}/.test(m) && !/[А-Яа-яЁё]/.test(m) && m === en[key])
      .map(([key]) => key)
      .filter((key) => !SAME_IN_BOTH.some((allowed) => key === allowed || key.startsWith(`${allowed}.`)));
    expect(suspicious).toEqual([]);
  });
});

// Keys whose text is the same in both languages on purpose (names of languages, field names of the API).
const SAME_IN_BOTH = ["shell.languages"];
