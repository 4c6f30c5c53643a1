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
