// Compares a PostgreSQL database with what schema.prisma declares: tables, columns (type, nullability),
// enums, primary keys, unique constraints, indexes and foreign keys. Returns readable differences.
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import type pg from "pg";

type Field = {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "enum" | "object" | "unsupported";
  type: string;
  isRequired: boolean;
  isList: boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
};
type Model = { name: string; dbName: string | null; fields: Field[] };
type Index = {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string | null;
  name?: string | null;
  algorithm?: string;
  fields: { name: string; sortOrder?: "asc" | "desc"; operatorClass?: string }[];
};
type Dmmf = {
  datamodel: {
    models: Model[];
    enums: { name: string; dbName: string | null; values: { name: string }[] }[];
    indexes: Index[];
  };
};

export type SchemaShape = {
  columns: Set<string>;
  enums: Set<string>;
  indexes: Set<string>;
  foreignKeys: Set<string>;
};

function columnType(field: Field): string {
  if (field.kind === "enum") return `enum ${field.type}`;
  const [native, args = []] = field.nativeType ?? [];
  switch (field.type) {
    case "String":
      return native === "Uuid" ? "uuid" : native === "VarChar" ? `varchar(${args[0]})` : "text";
    case "Int":
      return native === "SmallInt" ? "smallint" : "integer";
    case "BigInt":
      return "bigint";
    case "Boolean":
      return "boolean";
    case "Json":
      return native === "Json" ? "json" : "jsonb";
    case "Float":
      return "double precision";
    case "Bytes":
      return "bytea";
    case "DateTime":
      return native === "Timestamptz"
        ? `timestamptz(${args[0] ?? 6})`
        : native === "Date"
          ? "date"
          : `timestamp(${args[0] ?? 3})`;
    case "Decimal":
      return native === "Decimal" ? `numeric(${args.join(",")})` : "numeric(65,30)";
    default:
      return `unsupported ${field.type}`;
  }
}

/** A partial index's predicate without casts, outer parentheses or spacing: how PostgreSQL prints it. */
function normalisePredicate(predicate: string): string {
  return predicate
    .replace(/::("[^"]+"|[a-z_ ]+)/g, "")
    .replace(/^\((.*)\)$/s, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Predicates of the schema's partial indexes (`where: raw("...")`, preview feature partialIndexes), by
 * their `map` name: Prisma's DMMF leaves them out. A partial index must name itself with `map`.
 */
function partialIndexPredicates(schemaText: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [attribute] of schemaText.matchAll(/@@(?:index|unique)\(.*\)$/gm)) {
    const where = /where:\s*raw\("((?:[^"\\]|\\.)*)"\)/.exec(attribute)?.[1];
    if (!where) continue;
    const map = /map:\s*"([^"]+)"/.exec(attribute)?.[1];
    if (!map) throw new Error(`a partial index needs a map name: ${attribute}`);
    found.set(map, normalisePredicate(where.replace(/\\"/g, '"')));
  }
  return found;
}

/** The database structure schema.prisma asks for, in the same notation as `readDatabaseShape`. */
export function expectedShape(schemaText: string): SchemaShape {
  const dmmf = JSON.parse(
    get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", schemaText]] })),
  ) as Dmmf;
  const shape: SchemaShape = {
    columns: new Set(),
    enums: new Set(),
    indexes: new Set(),
    foreignKeys: new Set(),
  };
  const models = new Map(dmmf.datamodel.models.map((m) => [m.name, m]));
  const table = (m: Model) => m.dbName ?? m.name;
  const column = (m: Model, fieldName: string) => {
    const f = m.fields.find((x) => x.name === fieldName);
    return f?.dbName ?? fieldName;
  };
  for (const e of dmmf.datamodel.enums) {
    shape.enums.add(`${e.dbName ?? e.name}: ${e.values.map((v) => v.name).join(",")}`);
  }
  for (const m of dmmf.datamodel.models) {
    for (const f of m.fields) {
      if (f.kind === "scalar" || f.kind === "enum") {
        const list = f.isList ? "[]" : "";
        shape.columns.add(
          `${table(m)}.${f.dbName ?? f.name} ${columnType(f)}${list} ${f.isRequired ? "NOT NULL" : "NULL"}`,
        );
      }
      if (f.kind === "object" && f.relationFromFields?.length) {
        const target = models.get(f.type)!;
        const from = f.relationFromFields.map((x) => column(m, x)).join(",");
        const to = (f.relationToFields ?? []).map((x) => column(target, x)).join(",");
        shape.foreignKeys.add(`${table(m)}(${from}) -> ${table(target)}(${to})`);
      }
    }
  }
  const predicates = partialIndexPredicates(schemaText);
  for (const idx of dmmf.datamodel.indexes) {
    const m = models.get(idx.model)!;
    const cols = idx.fields.map((f) => column(m, f.name));
    const suffix = { id: "pkey", unique: "key", normal: "idx", fulltext: "idx" }[idx.type];
    const name =
      idx.dbName ?? (idx.type === "id" ? `${table(m)}_pkey` : `${table(m)}_${cols.join("_")}_${suffix}`);
    const kind = idx.type === "id" ? "PRIMARY KEY" : idx.type === "unique" ? "UNIQUE" : "INDEX";
    const colList = idx.fields.map(
      (f) =>
        `${column(m, f.name)}${f.operatorClass ? ` ${f.operatorClass}` : ""}${f.sortOrder === "desc" ? " DESC" : ""}`,
    );
    const method = idx.algorithm?.toLowerCase() ?? "btree";
    const where = predicates.get(name);
    shape.indexes.add(
      `${table(m)} ${kind} ${name} ${method} (${colList.join(", ")})${where ? ` WHERE ${where}` : ""}`,
    );
  }
  return shape;
}

/** The same notation read from a live database (schema `public`, Prisma's own table left out). */
export async function readDatabaseShape(client: pg.Client | pg.PoolClient): Promise<SchemaShape> {
  const shape: SchemaShape = {
    columns: new Set(),
    enums: new Set(),
    indexes: new Set(),
    foreignKeys: new Set(),
  };
  const columns = await client.query<{ t: string; c: string; type: string; nullable: boolean }>(`
    SELECT cls.relname AS t, att.attname AS c, att.attnotnull = false AS nullable,
           CASE WHEN typ.typtype = 'e' THEN 'enum ' || typ.typname
                WHEN typ.typcategory = 'A' AND elem.typtype = 'e' THEN 'enum ' || elem.typname || '[]'
                ELSE format_type(att.atttypid, att.atttypmod) END AS type
    FROM pg_attribute att
    JOIN pg_class cls ON cls.oid = att.attrelid
    JOIN pg_namespace ns ON ns.oid = cls.relnamespace
    JOIN pg_type typ ON typ.oid = att.atttypid
    LEFT JOIN pg_type elem ON elem.oid = typ.typelem
    WHERE ns.nspname = 'public' AND cls.relkind = 'r' AND att.attnum > 0 AND NOT att.attisdropped
      AND cls.relname <> '_prisma_migrations'`);
  for (const r of columns.rows) {
    shape.columns.add(`${r.t}.${r.c} ${normaliseType(r.type)} ${r.nullable ? "NULL" : "NOT NULL"}`);
  }
  const enums = await client.query<{ name: string; vals: string }>(`
    SELECT t.typname AS name, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS vals
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' GROUP BY t.typname`);
  for (const r of enums.rows) shape.enums.add(`${r.name}: ${r.vals}`);
  const indexes = await client.query<{
    t: string;
    name: string;
    primary: boolean;
    unique: boolean;
    cols: string;
    method: string;
    predicate: string | null;
  }>(`
    SELECT tbl.relname AS t, idx.relname AS name, ix.indisprimary AS primary, ix.indisunique AS unique,
           am.amname AS method, pg_get_expr(ix.indpred, ix.indrelid) AS predicate,
           (SELECT string_agg(a.attname || CASE WHEN opc.opcdefault THEN '' ELSE ' ' || opc.opcname END
                     || CASE WHEN (ix.indoption[k.i - 1] & 1) = 1 THEN ' DESC' ELSE '' END, ', ' ORDER BY k.i)
              FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, i)
              JOIN pg_attribute a ON a.attrelid = tbl.oid AND a.attnum = k.attnum
              JOIN pg_opclass opc ON opc.oid = ix.indclass[k.i - 1]) AS cols
    FROM pg_index ix
    JOIN pg_class idx ON idx.oid = ix.indexrelid
    JOIN pg_am am ON am.oid = idx.relam
    JOIN pg_class tbl ON tbl.oid = ix.indrelid
    JOIN pg_namespace ns ON ns.oid = tbl.relnamespace
    WHERE ns.nspname = 'public' AND tbl.relname <> '_prisma_migrations'`);
  for (const r of indexes.rows) {
    const kind = r.primary ? "PRIMARY KEY" : r.unique ? "UNIQUE" : "INDEX";
    const where = r.predicate ? ` WHERE ${normalisePredicate(r.predicate)}` : "";
    shape.indexes.add(`${r.t} ${kind} ${r.name} ${r.method} (${r.cols})${where}`);
  }
  const fks = await client.query<{ t: string; cols: string; ref: string; refcols: string }>(`
    SELECT src.relname AS t, dst.relname AS ref,
      (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(con.conkey) WITH ORDINALITY AS k(n, i)
         JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n) AS cols,
      (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(con.confkey) WITH ORDINALITY AS k(n, i)
         JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n) AS refcols
    FROM pg_constraint con
    JOIN pg_class src ON src.oid = con.conrelid
    JOIN pg_class dst ON dst.oid = con.confrelid
    JOIN pg_namespace ns ON ns.oid = src.relnamespace
    WHERE con.contype = 'f' AND ns.nspname = 'public'`);
  for (const r of fks.rows) shape.foreignKeys.add(`${r.t}(${r.cols}) -> ${r.ref}(${r.refcols})`);
  return shape;
}

function normaliseType(type: string): string {
  return type
    .replace(/^timestamp\((\d)\) with time zone$/, "timestamptz($1)")
    .replace(/^timestamp with time zone$/, "timestamptz(6)")
    .replace(/^timestamp\((\d)\) without time zone$/, "timestamp($1)")
    .replace(/^character varying\((\d+)\)$/, "varchar($1)")
    .replace(/^numeric\((\d+),(\d+)\)$/, "numeric($1,$2)");
}

/** Lines of the form "- missing in database: ..." / "+ not in schema.prisma: ...". */
export function diffShapes(expected: SchemaShape, actual: SchemaShape): string[] {
  const out: string[] = [];
  for (const key of ["columns", "enums", "indexes", "foreignKeys"] as const) {
    for (const item of expected[key])
      if (!actual[key].has(item)) out.push(`- missing in database (${key}): ${item}`);
    for (const item of actual[key])
      if (!expected[key].has(item)) out.push(`+ not in schema.prisma (${key}): ${item}`);
  }
  return out.sort();
}
