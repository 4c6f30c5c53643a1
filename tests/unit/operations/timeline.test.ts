import { describe, expect, it } from "vitest";
import { buildTimeline } from "@/lib/operations/detail/timeline";

const t = (m: number) => new Date(Date.UTC(2026, 10, 20, 10, m));

describe("buildTimeline", () => {
  it("measures the time spent in each status, none for the final one", () => {
    const entries = buildTimeline(
      t(0),
      [
        {
          fromStatus: "created",
          toStatus: "in_progress",
          source: "webhook",
          sourceRef: "webhook:1",
          platformDateUpdated: t(5),
          recordedAt: t(6),
        },
        {
          fromStatus: null,
          toStatus: "created",
          source: "creation",
          sourceRef: "tr-1",
          platformDateUpdated: null,
          recordedAt: t(0),
        },
        {
          fromStatus: "in_progress",
          toStatus: "success",
          source: "readBack",
          sourceRef: "tr-2",
          platformDateUpdated: t(65),
          recordedAt: t(66),
        },
      ],
      t(100),
    );
    expect(entries.map((e) => [e.status, e.source, e.durationMs, e.ongoing])).toEqual([
      ["created", "creation", 5 * 60_000, false],
      ["in_progress", "webhook", 60 * 60_000, false],
      ["success", "readBack", null, false],
    ]);
  });

  it("runs the clock for a current non-final status", () => {
    const [entry] = buildTimeline(
      t(0),
      [
        {
          fromStatus: null,
          toStatus: "created",
          source: "reconciliation",
          sourceRef: null,
          platformDateUpdated: t(1),
          recordedAt: t(2),
        },
      ],
      t(11),
    );
    expect(entry).toMatchObject({ status: "created", durationMs: 10 * 60_000, ongoing: true });
  });
});

describe("buildTimeline edges", () => {
  const change = (
    toStatus: "created" | "in_progress" | "success" | "failed",
    fromStatus: "created" | "in_progress" | null,
    platformDateUpdated: Date | null,
    recordedAt: Date,
  ) => ({
    fromStatus,
    toStatus,
    source: "readBack" as const,
    sourceRef: `tr-${toStatus}`,
    platformDateUpdated,
    recordedAt,
  });

  it("every field of an entry: at is the platform's date, recordedAt ours", () => {
    expect(buildTimeline(t(0), [change("failed", "created", t(3), t(4))], t(9))).toEqual([
      {
        status: "failed",
        fromStatus: "created",
        source: "readBack",
        sourceRef: "tr-failed",
        at: "2026-11-20T10:03:00.000Z",
        recordedAt: "2026-11-20T10:04:00.000Z",
        durationMs: null,
        ongoing: false,
      },
    ]);
  });

  it("the first status without a platform date starts at dateAdded", () => {
    const [first] = buildTimeline(t(0), [change("created", null, null, t(7))], t(10));
    expect(first).toMatchObject({ at: "2026-11-20T10:00:00.000Z", durationMs: 10 * 60_000, ongoing: true });
  });

  it("a history that begins with a move (fromStatus set) starts at its record time, not at dateAdded", () => {
    const [first] = buildTimeline(t(0), [change("in_progress", "created", null, t(7))], t(10));
    expect(first).toMatchObject({ at: "2026-11-20T10:07:00.000Z", durationMs: 3 * 60_000 });
  });

  it("a later status without a platform date starts at its record time", () => {
    const entries = buildTimeline(
      t(0),
      [change("created", null, t(1), t(1)), change("in_progress", "created", null, t(4))],
      t(10),
    );
    expect(entries.map((e) => [e.at, e.durationMs])).toEqual([
      ["2026-11-20T10:01:00.000Z", 3 * 60_000],
      ["2026-11-20T10:04:00.000Z", 6 * 60_000],
    ]);
  });

  it("a next status dated before this one counts as no time, never negative", () => {
    const entries = buildTimeline(
      t(0),
      [change("created", null, t(5), t(5)), change("in_progress", "created", t(2), t(6))],
      t(10),
    );
    expect(entries[0]?.durationMs).toBe(0);
  });

  it("entries are ordered by when they were recorded, not by the platform's dates", () => {
    const entries = buildTimeline(
      t(0),
      [change("success", "in_progress", t(1), t(9)), change("in_progress", "created", t(8), t(2))],
      t(10),
    );
    expect(entries.map((e) => e.status)).toEqual(["in_progress", "success"]);
  });

  it("no changes: no entries", () => {
    expect(buildTimeline(t(0), [], t(10))).toEqual([]);
  });
});

describe("buildTimeline when the history starts again", () => {
  it("a later entry without a previous status still starts at its record time, not at dateAdded", () => {
    const entries = buildTimeline(
      t(0),
      [
        {
          fromStatus: null,
          toStatus: "created",
          source: "creation",
          sourceRef: null,
          platformDateUpdated: t(1),
          recordedAt: t(1),
        },
        {
          fromStatus: "created",
          toStatus: "in_progress",
          source: "webhook",
          sourceRef: null,
          platformDateUpdated: t(3),
          recordedAt: t(3),
        },
        {
          fromStatus: null,
          toStatus: "in_progress",
          source: "reconciliation",
          sourceRef: null,
          platformDateUpdated: null,
          recordedAt: t(6),
        },
      ],
      t(10),
    );
    expect(entries.map((e) => [e.at, e.durationMs])).toEqual([
      ["2026-11-20T10:01:00.000Z", 2 * 60_000],
      ["2026-11-20T10:03:00.000Z", 3 * 60_000],
      ["2026-11-20T10:06:00.000Z", 4 * 60_000],
    ]);
  });
});
