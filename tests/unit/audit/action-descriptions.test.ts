// Every audit action the code writes (`audit(tx, actor, { action: ... })` anywhere in lib/ and app/) has
// a description in both languages, so the audit log page never shows a bare code to one reader and
// words to another. Actions are collected from the source text: string literals, each branch of a
// ternary, and template literals with the values their placeholder takes (listed below).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditActionDescription, auditActorName } from "@/lib/audit/descriptions";
import { SYSTEM_ACTOR_NAMES } from "@/lib/audit/log";

const ROOT = process.cwd();

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return rel.startsWith(path.join("lib", "generated")) ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

// The values a template literal's placeholder takes, by the template (`drift.${decision}`).
const TEMPLATE_VALUES: Record<string, string[]> = {
  "drift.${decision}": ["acknowledge", "resolve"],
  "payout.${to}": ["submitted", "failed_to_submit"],
};

/** The source of one expression from `start`: up to the first comma or closing brace outside brackets and strings. */
function expressionAt(source: string, start: number): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("([{".includes(c)) depth++;
    else if (depth > 0 && ")]}".includes(c)) depth--;
    else if (c === "," || c === "}" || c === ")") return source.slice(start, i).trim();
  }
  return source.slice(start).trim();
}

/** The `action:` expression of each `audit(` call (its third argument is the entry object). */
function actionExpressions(source: string): string[] {
  const found: string[] = [];
  for (const call of source.matchAll(/\baudit\(/g)) {
    const window = source.slice(call.index, call.index + 800);
    const property = /\baction:\s*/.exec(window);
    if (property) found.push(expressionAt(source, call.index + property.index + property[0].length));
  }
  // the two-factor helper takes the action as its second argument
  for (const call of source.matchAll(/(?<!function )\bauditTwoFactor\([^,()]+,\s*/g)) {
    found.push(expressionAt(source, call.index + call[0].length));
  }
  // the preference saver takes the action as its fourth argument
  for (const call of source.matchAll(/(?<!function )\bsavePreference\((?:[^,()]+,\s*){3}/g)) {
    found.push(expressionAt(source, call.index + call[0].length));
  }
  return found;
}

function actionNames(expression: string, where: string): string[] {
  // `condition ? "a" : "b"`: the names are the branches, not what the condition compares with
  const question = expression.search(/\?(?![.?])/);
  const branches = question >= 0 ? expression.slice(question + 1) : expression;
  const names: string[] = [];
  for (const literal of branches.matchAll(/"([^"]+)"|'([^']+)'/g)) names.push(literal[1] ?? literal[2]!);
  for (const template of branches.matchAll(/`([^`]+)`/g)) {
    const values = TEMPLATE_VALUES[template[1]!];
    if (!values)
      throw new Error(`${where}: list the values of the audit action \`${template[1]}\` in this test`);
    const placeholder = /\$\{[^}]+\}/;
    names.push(...values.map((value) => template[1]!.replace(placeholder, value)));
  }
  if (names.length === 0) throw new Error(`${where}: cannot read the audit action of \`${expression}\``);
  return names;
}

const written = new Map<string, string>();
for (const file of [...sourceFiles("lib"), ...sourceFiles("app")]) {
  const source = readFileSync(path.join(ROOT, file), "utf8");
  for (const expression of actionExpressions(source)) {
    for (const name of actionNames(expression, file)) written.set(name, file);
  }
}

function describedActions(locale: "en" | "ru"): string[] {
  const catalog = JSON.parse(readFileSync(path.join(ROOT, "messages", locale, "audit.json"), "utf8")) as {
    actions: Record<string, unknown>;
  };
  const walk = (node: unknown, prefix: string): string[] =>
    typeof node === "string"
      ? [prefix]
      : Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
          walk(v, prefix ? `${prefix}.${k}` : k),
        );
  return walk(catalog.actions, "");
}

describe("audit action descriptions", () => {
  it("finds the actions the code writes (the collector itself works)", () => {
    expect(written.size).toBeGreaterThan(20);
    expect([...written.keys()]).toEqual(
      expect.arrayContaining([
        "settings.update",
        "user.create",
        "user.password.remove",
        "statements.issue",
        "drift.acknowledge",
        "drift.resolve",
        "payout.approve",
        "payout.reject",
        "payin.create",
        "paymentLink.create",
      ]),
    );
  });

  it.each(["en", "ru"] as const)(
    "every action written anywhere in lib/ and app/ is described in %s",
    (locale) => {
      const missing = [...written].filter(([name]) => !auditActionDescription(name, locale));
      expect(missing.map(([name, file]) => `${name} (${file})`)).toEqual([]);
    },
  );

  it("describes no action the code does not write (a renamed action leaves no stale words)", () => {
    expect(describedActions("en").filter((name) => !written.has(name))).toEqual([]);
    expect(describedActions("ru").sort()).toEqual(describedActions("en").sort());
  });

  it("words an action in the reader's language, and knows none for an unknown one", () => {
    expect(auditActionDescription("settings.update", "en")).toBe("Changed a setting");
    expect(auditActionDescription("settings.update", "ru")).toBe("Изменение настройки");
    expect(auditActionDescription("user.language.change", "ru")).toBe("Смена языка интерфейса");
    expect(auditActionDescription("user", "en")).toBeNull();
    expect(auditActionDescription("no.such.action", "ru")).toBeNull();
    expect(auditActionDescription("__proto__", "en")).toBeNull();
  });
});

describe("who did it", () => {
  it.each([
    ["cli", "command line", "командная строка"],
    ["system", "Paydesk (worker)", "Paydesk (обработчик)"],
    ["automatic", "Paydesk (scheduled)", "Paydesk (по расписанию)"],
    ["finance@example.test", "finance@example.test", "finance@example.test"],
  ])("%s reads as %j in English and %j in Russian", (stored, en, ru) => {
    expect(auditActorName(stored, "en")).toBe(en);
    expect(auditActorName(stored, "ru")).toBe(ru);
  });

  it("every actor without a user has words in both languages", () => {
    for (const name of SYSTEM_ACTOR_NAMES) {
      expect(auditActorName(name, "en")).not.toBe(name);
      expect(auditActorName(name, "ru")).not.toBe(name);
    }
  });
});
