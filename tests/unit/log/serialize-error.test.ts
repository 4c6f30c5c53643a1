import { describe, expect, it } from "vitest";
import { serializeError } from "@/lib/log-error";

class DatabaseError extends Error {
  override name = "DatabaseError";
  code = "57P01";
  query = "operations.list";
  severity = "FATAL";
  client = { connectionParameters: { password: "secret" }, queryQueue: [{ text: "SELECT 1" }] };
  connection = { stream: { remoteAddress: "127.0.0.1" } };
}

describe("serializeError", () => {
  it("keeps the message, the code and the query name, never a nested client or connection", () => {
    const out = serializeError(new DatabaseError("terminating connection due to administrator command"));
    expect(out).toMatchObject({
      type: "DatabaseError",
      message: "terminating connection due to administrator command",
      code: "57P01",
      query: "operations.list",
      severity: "FATAL",
    });
    expect(out).not.toHaveProperty("client");
    expect(out).not.toHaveProperty("connection");
    expect(JSON.stringify(out)).not.toContain("secret");
  });

  it("keeps plain fields of our own errors (traceID, httpStatus, attempts) and bigint as text", () => {
    const error = Object.assign(new Error("platform said no"), {
      traceID: "t-1",
      httpStatus: 502,
      outcomeUnknown: false,
      deliveryId: 12n,
      details: { nested: true },
    });
    expect(serializeError(error)).toMatchObject({
      type: "Error",
      traceID: "t-1",
      httpStatus: 502,
      outcomeUnknown: false,
      deliveryId: "12",
    });
    expect(serializeError(error)).not.toHaveProperty("details");
  });

  it("follows the cause by its message only, and describes a thrown non-error", () => {
    const withCause = new Error("outer", { cause: Object.assign(new Error("inner"), { client: {} }) });
    expect(serializeError(withCause).cause).toBe("inner");
    expect(serializeError("plain text")).toEqual({ type: "string", message: "plain text" });
  });
});
