// The upgrade rule of docs/deploy.md, held mechanically: during a rolling deploy the previous release
// runs on the migrated schema, so a migration may not take away what its queries use. Read by
// tests/unit/db/rolling-deploy.test.ts over every migration after the first.

export type BreakingStatement = { statement: string; breaks: string };

/** The comment that lets one statement through, with its reason: `-- rolling-deploy: unused since <release>`. */
export const ALLOW_MARK = /^--\s*rolling-deploy:\s*\S/;

type Statement = { text: string; allowed: boolean };

/**
 * The statements of a migration with string literals and dollar-quoted bodies emptied and comments
 * removed (their words are not the statement's); a statement preceded by ALLOW_MARK is `allowed`.
 */
export function splitStatements(sql: string): Statement[] {
  const out: Statement[] = [];
  let text = "";
  let allowed = false;
  const end = () => {
    if (text.trim() !== "") out.push({ text: text.replace(/\s+/g, " ").trim(), allowed });
    text = "";
    allowed = false;
  };
  for (let i = 0; i < sql.length;) {
    const rest = sql.slice(i, i + 2);
    const tag = sql[i] === "$" ? dollarTagAt(sql, i) : null;
    if (rest === "--") {
      const stop = sql.indexOf("\n", i);
      const comment = sql.slice(i, stop < 0 ? sql.length : stop);
      if (ALLOW_MARK.test(comment)) allowed = true;
      i = stop < 0 ? sql.length : stop;
    } else if (rest === "/*") {
      const stop = sql.indexOf("*/", i + 2);
      i = stop < 0 ? sql.length : stop + 2;
    } else if (sql[i] === "'") {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === "'" && sql[j + 1] !== "'")) j += sql[j] === "'" ? 2 : 1;
      text += "''";
      i = j + 1;
    } else if (tag !== null) {
      const stop = sql.indexOf(tag, i + tag.length);
      text += "$$";
      i = stop < 0 ? sql.length : stop + tag.length;
    } else if (sql[i] === ";") {
      end();
      i += 1;
    } else {
      text += sql[i];
      i += 1;
    }
  }
  end();
  return out;
}

const DOLLAR_TAG = /\$[A-Za-z_]*\$/y;

/** The dollar-quote tag (`$$`, `$body$`) that starts at `at`, or null (`$1` is a parameter). */
function dollarTagAt(sql: string, at: number): string | null {
  DOLLAR_TAG.lastIndex = at;
  return DOLLAR_TAG.exec(sql)?.[0] ?? null;
}

/** The top-level clauses of an ALTER TABLE (split at commas outside parentheses). */
function clauses(statement: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < statement.length; i++) {
    if (statement[i] === "(") depth++;
    else if (statement[i] === ")") depth--;
    else if (statement[i] === "," && depth === 0) {
      parts.push(statement.slice(start, i));
      start = i + 1;
    }
  }
  return [...parts, statement.slice(start)];
}

const name = String.raw`("[^"]+"|[\w.]+)`;
const RULES: Array<[RegExp, string]> = [
  [
    /^DROP (TABLE|VIEW|MATERIALIZED VIEW|TYPE|SCHEMA|SEQUENCE)\b/i,
    "drops what the previous release may read",
  ],
  [/\bDROP (COLUMN\b|")/i, "drops a column"],
  [/\bRENAME\b/i, "renames what the previous release names"],
  [
    new RegExp(String.raw`\bALTER (COLUMN )?${name} (SET DATA )?TYPE\b`, "i"),
    "changes a column's type in place",
  ],
  [new RegExp(String.raw`\bALTER (COLUMN )?${name} SET NOT NULL\b`, "i"), "makes a column required"],
];
const CREATE_FUNCTION = new RegExp(String.raw`^CREATE (OR REPLACE )?FUNCTION ${name}`, "i");
const ADD_CONSTRAINT = new RegExp(String.raw`\bADD CONSTRAINT ${name}`, "gi");
const DROP_CONSTRAINT = new RegExp(String.raw`\bDROP CONSTRAINT (IF EXISTS )?${name}`, "i");
const DROP_FUNCTION = new RegExp(String.raw`^DROP FUNCTION (IF EXISTS )?${name}`, "i");

/**
 * What in `sql` the previous release's queries may break on: dropped or renamed tables, columns and
 * types, a column's type changed or made required, a required column added without a default, a
 * constraint dropped and not added again (an `ON CONFLICT` may name it), and a function dropped and not
 * created again (its new parameters need defaults for the old calls: not checked here).
 */
export function breakingStatements(sql: string): BreakingStatement[] {
  const statements = splitStatements(sql);
  const created = new Set<string>();
  const addedConstraints = new Set<string>();
  for (const { text } of statements) {
    const fn = CREATE_FUNCTION.exec(text);
    if (fn) created.add(unquote(fn[2]!));
    for (const m of text.matchAll(ADD_CONSTRAINT)) addedConstraints.add(unquote(m[1]!));
  }
  const found: BreakingStatement[] = [];
  for (const { text, allowed } of statements) {
    if (allowed) continue;
    const add = (breaks: string) => found.push({ statement: text, breaks });
    for (const [rule, breaks] of RULES) if (rule.test(text)) add(breaks);
    if (/^ALTER TABLE\b/i.test(text)) {
      for (const clause of clauses(text)) {
        if (/\bADD COLUMN\b/i.test(clause) && /\bNOT NULL\b/i.test(clause) && !/\bDEFAULT\b/i.test(clause))
          add("adds a required column without a default");
        const dropped = DROP_CONSTRAINT.exec(clause);
        if (dropped && !addedConstraints.has(unquote(dropped[2]!)))
          add("drops a constraint the previous release may name");
      }
    }
    const dropped = DROP_FUNCTION.exec(text)?.[2];
    if (dropped !== undefined && !dropped.startsWith("pg_temp.") && !created.has(unquote(dropped)))
      add("drops a function the previous release may call");
  }
  return found;
}

function unquote(identifier: string): string {
  return identifier.replace(/^"(.*)"$/, "$1");
}
