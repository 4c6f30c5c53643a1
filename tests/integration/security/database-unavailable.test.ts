import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { Writable } from "node:stream";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { DatabaseUnavailableError, isDatabaseUnavailable, toPageError } from "@/lib/errors/database";
import { databaseUnavailableDigest, readErrorDigest } from "@/lib/errors/digest";
import { logRequestError } from "@/lib/errors/request-error-log";
import { PrismaClient } from "@/lib/generated/prisma/client";

// A database outage must reach the error page as "the database is unavailable", not as Next's
// generic error: in production only the error's digest crosses to the browser, so the page-level
// loader turns real outage errors into an error whose digest says so and names the request.
const requestHeaders = vi.hoisted(() => ({ current: null as Headers | null }));
vi.mock("next/headers", () => ({
  headers: async () => {
    if (!requestHeaders.current) throw new Error("headers() called outside a request");
    return requestHeaders.current;
  },
}));

let closing: Server;
let hanging: Server;
const held = new Set<Socket>();

beforeAll(async () => {
  closing = createServer((socket) => socket.destroy());
  hanging = createServer((socket) => held.add(socket));
  await Promise.all([closing, hanging].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await Promise.all([closing, hanging].map((s) => new Promise((r) => s.close(r))));
});

const port = (server: Server) => (server.address() as AddressInfo).port;

/** What Prisma (with the pg adapter, as lib/db.ts builds it) throws for a database at `url`. */
async function prismaErrorFor(url: string): Promise<unknown> {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 500 });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  try {
    await db.user.findFirst();
  } catch (error) {
    return error;
  } finally {
    await db.$disconnect().catch(() => {});
  }
  throw new Error("the query did not fail");
}

async function rawPgErrorFor(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 500 });
  try {
    await client.connect();
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => {});
  }
  throw new Error("the connection did not fail");
}

describe("isDatabaseUnavailable", () => {
  it("recognises what Prisma and pg really throw when the database cannot be used", async () => {
    const refused = await prismaErrorFor("postgresql://u:p@127.0.0.1:1/x");
    const unknownHost = await prismaErrorFor("postgresql://u:p@db.invalid:5432/x");
    const closed = await prismaErrorFor(`postgresql://u:p@127.0.0.1:${port(closing)}/x`);
    const timedOut = await prismaErrorFor(`postgresql://u:p@127.0.0.1:${port(hanging)}/x`);
    const rawRefused = await rawPgErrorFor("postgresql://u:p@127.0.0.1:1/x");
    const wrongDatabase = await prismaErrorFor(
      Object.assign(new URL(process.env.DATABASE_URL!), { pathname: "/no_such_database" }).toString(),
    );
    // Already mapped, as seen from another bundle (instrumentation.ts): recognised by its digest.
    const mappedElsewhere = {
      name: "DatabaseUnavailableError",
      digest: databaseUnavailableDigest(undefined),
    };
    for (const error of [
      refused,
      unknownHost,
      closed,
      timedOut,
      rawRefused,
      wrongDatabase,
      mappedElsewhere,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it("leaves errors of a working database, and other failures, alone", async () => {
    const divisionByZero = await getDb().$queryRaw`SELECT 1 / 0`.then(() => null).catch((e: unknown) => e);
    const notFound = await getDb()
      .user.findUniqueOrThrow({ where: { id: "00000000-0000-4000-8000-000000000000" } })
      .then(() => null)
      .catch((e: unknown) => e);
    const platformDown = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    for (const error of [
      divisionByZero,
      notFound,
      platformDown,
      new Error("boom"),
      "text",
      null,
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});

describe("toPageError", () => {
  it("turns an outage into an error whose digest names the kind and the request", async () => {
    const requestId = "3f0d5a4e-1c2b-4d3e-8f90-a1b2c3d4e5f6";
    requestHeaders.current = new Headers({ "x-request-id": requestId });
    try {
      const cause = await prismaErrorFor("postgresql://u:p@127.0.0.1:1/x");
      const mapped = await toPageError(cause);
      expect(mapped).toBeInstanceOf(DatabaseUnavailableError);
      const error = mapped as DatabaseUnavailableError;
      expect(error.cause).toBe(cause);
      expect(error.message).toBe("The database is unavailable.");
      // The digest is all the browser gets in production: the error page reads it back.
      expect(readErrorDigest(error.digest)).toEqual({ kind: "database-unavailable", requestId });
    } finally {
      requestHeaders.current = null;
    }
  });

  it("works outside a request (no id) and returns every other error unchanged", async () => {
    const mapped = (await toPageError(
      Object.assign(new Error("x"), { code: "P1001" }),
    )) as DatabaseUnavailableError;
    expect(readErrorDigest(mapped.digest)).toEqual({ kind: "database-unavailable" });
    const other = new Error("a bug");
    expect(await toPageError(other)).toBe(other);
    const redirect = Object.assign(new Error("NEXT_REDIRECT"), {
      digest: "NEXT_REDIRECT;replace;/login;307;",
    });
    expect(await toPageError(redirect)).toBe(redirect);
  });
});

describe("readErrorDigest", () => {
  it.each([
    [
      databaseUnavailableDigest("3f0d5a4e-1c2b-4d3e-8f90-a1b2c3d4e5f6"),
      { kind: "database-unavailable", requestId: "3f0d5a4e-1c2b-4d3e-8f90-a1b2c3d4e5f6" },
    ],
    ["PAYDESK_DATABASE_UNAVAILABLE", { kind: "database-unavailable" }],
    ["PAYDESK_DATABASE_UNAVAILABLE;<img src=x onerror=alert(1)>", { kind: "database-unavailable" }],
    [
      "PAYDESK_DATABASE_UNAVAILABLE;\u202e3f0d5a4e-1c2b-4d3e-8f90-a1b2c3d4e5f6",
      { kind: "database-unavailable" },
    ],
    ["2847362512", { kind: "unexpected", digest: "2847362512" }],
    ["", { kind: "unexpected" }],
    [undefined, { kind: "unexpected" }],
    [42, { kind: "unexpected" }],
  ])("%j", (digest, expected) => {
    expect(readErrorDigest(digest)).toEqual(expected);
  });
});

describe("logRequestError", () => {
  it("logs one line with the request id, the digest, the path without its query and the cause", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = pino({ base: null }, stream);
    const requestId = "3f0d5a4e-1c2b-4d3e-8f90-a1b2c3d4e5f6";
    const error = new DatabaseUnavailableError(
      requestId,
      Object.assign(new Error("refused"), { code: "P1001" }),
    );
    logRequestError(
      log,
      error,
      { path: "/operations?q=4242", method: "GET", headers: { "x-request-id": requestId } },
      { routePath: "/(console)/operations", routeType: "render", renderSource: "react-server-components" },
    );
    const generic = Object.assign(new Error("a bug"), { digest: "2847362512" });
    logRequestError(
      log,
      generic,
      {
        path: "/payouts",
        method: "GET",
        headers: { "x-request-id": "b0d5a4e3-1c2b-4d3e-8f90-a1b2c3d4e5f6" },
      },
      { routePath: "/(console)/payouts", routeType: "render" },
    );
    const [outage, bug] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(outage).toMatchObject({
      level: 50,
      msg: "request failed: the database is unavailable",
      requestId,
      digest: `PAYDESK_DATABASE_UNAVAILABLE;${requestId}`,
      method: "GET",
      path: "/operations",
      route: "/(console)/operations",
      databaseUnavailable: true,
    });
    expect(JSON.stringify(outage)).toContain("refused");
    expect(JSON.stringify(outage)).not.toContain("4242");
    expect(bug).toMatchObject({
      msg: "request failed",
      requestId: "b0d5a4e3-1c2b-4d3e-8f90-a1b2c3d4e5f6",
      digest: "2847362512",
      databaseUnavailable: false,
    });
  });
});
