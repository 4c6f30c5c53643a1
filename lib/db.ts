import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { finished } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getDatabasePoolSize, getDatabaseUrl } from "@/lib/env";
import { getLog } from "@/lib/log";

function createClient(pool: pg.Pool) {
  // The client owns the pool: $disconnect ends it.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  // Secrets stay out of every query result unless a query asks for them explicitly.
  return new PrismaClient({
    adapter,
    omit: { user: { passwordHash: true, totpSecret: true } },
    // Writes that wait for an operation's lock may queue behind others under load: wait, don't fail.
    transactionOptions: { maxWait: 15_000, timeout: 30_000 },
  });
}

export type Db = ReturnType<typeof createClient>;

const globalForDb = globalThis as unknown as { paydeskDb?: Db; paydeskPool?: pg.Pool };

function getPool(): pg.Pool {
  // Ended by $disconnect (scripts and tests do that); Prisma then reconnects with a pool of its own.
  if (!globalForDb.paydeskPool || globalForDb.paydeskPool.ended) {
    const pool = new pg.Pool({ connectionString: getDatabaseUrl(), max: getDatabasePoolSize() });
    // An idle connection's end (a database restart, a failover) is logged, not thrown at the process,
    // also before Prisma's adapter (which listens once it has connected) has used the pool.
    pool.on("error", (error) => getLog().warn({ err: error }, "database: an idle connection ended"));
    globalForDb.paydeskPool = pool;
  }
  return globalForDb.paydeskPool;
}

/** The one Prisma client of the process (kept on globalThis so dev hot reloads reuse it). */
export function getDb(): Db {
  globalForDb.paydeskDb ??= createClient(getPool());
  return globalForDb.paydeskDb;
}

/**
 * A connection of the Prisma client's own pool, for reads too large for Prisma's row handling (the CSV
 * export streams a million rows through it; Prisma's per-query work there costs over 100 MB of memory).
 * The caller must `release()` it.
 */
export function poolConnection(): Promise<pg.PoolClient> {
  return getPool().connect();
}

/**
 * A transaction of withPoolTransaction. Its BEGIN travels with the first statement that can carry it
 * (one without parameters, sent as a simple query), and the statements given to `atCommit` travel with
 * its COMMIT: a short transaction makes two round trips fewer, and each round trip is two wake-ups of
 * processes that share the machine's cores.
 */
export type PoolTransaction = {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    query: string | pg.QueryConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
  /**
   * Runs `COPY … FROM STDIN` with `text` as its data (PostgreSQL's text format: copyText in
   * lib/db-copy-text.ts). A failed COPY fails the transaction like any statement.
   */
  copyFrom(statement: string, text: string): Promise<void>;
  /** Sends `sql` (no parameters) just before the COMMIT; if it fails, the transaction is rolled back. */
  atCommit(sql: string): void;
};

/** `begin`: the statements that open the transaction (BEGIN and its SET LOCALs). */
function poolTransaction(client: pg.PoolClient, begin: string[]) {
  let begun = false;
  const atCommit: string[] = [];
  // For a statement that cannot carry the BEGIN (a prepared one, a COPY): a round trip of its own.
  const beginAlone = async () => {
    begun = true;
    await client.query(begin.join("; "));
  };
  const send = async (config: pg.QueryConfig): Promise<pg.QueryResult> => {
    if (begun) return client.query(config);
    if (config.name || config.values?.length) {
      await beginAlone();
      return client.query(config);
    }
    begun = true;
    // The results of a multi-statement query come as an array: the caller gets those of its own text.
    const all = (await client.query([...begin, config.text].join("; "))) as unknown as pg.QueryResult[];
    const own = all.slice(begin.length);
    return (own.length === 1 ? own[0] : own) as pg.QueryResult;
  };
  const tx: PoolTransaction = {
    query: (query, values) => send(typeof query === "string" ? { text: query, values } : query) as never,
    copyFrom: async (statement, text) => {
      if (!begun) await beginAlone();
      const stream = client.query(copyFrom(statement));
      stream.end(text);
      await finished(stream);
    },
    atCommit: (sql) => void atCommit.push(sql),
  };
  return {
    tx,
    commit: async () => {
      if (!begun && atCommit.length === 0) return; // nothing was sent: no transaction to end
      await client.query([...(begun ? [] : begin), ...atCommit, "COMMIT"].join("; "));
    },
    rollback: async () => {
      if (begun) await client.query("ROLLBACK");
    },
  };
}

/**
 * Runs `fn` in a transaction on a connection of the same pool, without Prisma: for the hot paths
 * (the mirror's writes, webhook processing), where Prisma's runtime costs ~300 µs of CPU a statement
 * and serialises a large parameter (a reconciliation page's rows as one JSON text) and parses it again
 * before sending it. Rolls back if `fn` throws; a connection whose rollback failed is discarded.
 */
export async function withPoolTransaction<T>(
  fn: (tx: PoolTransaction) => Promise<T>,
  options: {
    statementTimeoutMs: number;
    /**
     * false: COMMIT returns without waiting for the WAL to reach the disk. Only for writes that can be
     * done again from something committed durably before them: a crash of PostgreSQL may undo the last
     * fraction of a second of such commits (never half of one).
     */
    synchronousCommit?: boolean;
    /** Settings of this transaction only (SET LOCAL), sent with its BEGIN: no round trip of their own. */
    settings?: Readonly<Record<string, string>>;
  },
): Promise<T> {
  const begin = [
    "BEGIN",
    `SET LOCAL statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`,
    ...(options.synchronousCommit === false ? ["SET LOCAL synchronous_commit = off"] : []),
    ...Object.entries(options.settings ?? {}).map(([name, value]) => setLocal(name, value)),
  ];
  const client = await poolConnection();
  const { tx, commit, rollback } = poolTransaction(client, begin);
  let broken = false;
  try {
    const result = await fn(tx);
    await commit();
    return result;
  } catch (error) {
    await rollback().catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

function setLocal(name: string, value: string): string {
  if (!/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`not a custom setting's name: ${name}`);
  return `SET LOCAL ${name} = ${pg.escapeLiteral(value)}`;
}

/** One statement on a connection of the same pool, without Prisma (see withPoolTransaction). */
export function poolQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  query: pg.QueryConfig,
): Promise<pg.QueryResult<R>> {
  return getPool().query<R>(query);
}
