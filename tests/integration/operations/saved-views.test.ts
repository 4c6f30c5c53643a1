// A user's saved views of the operations list (lib/operations/list/saved-views.ts): listed by name,
// saved again under the same name replaces the query, deleted only by their owner.
import { describe, expect, it } from "vitest";
import { deleteView, listSavedViews, saveView } from "@/lib/operations/list/saved-views";
import { createStaff } from "../../support/mirror";

describe("saved views", () => {
  it("lists a user's views by name, with id, name and query only", async () => {
    const me = await createStaff("support");
    const other = await createStaff("support");
    await saveView(me.id, "zeta", "status=failed");
    await saveView(me.id, "alpha", "type=payIn");
    await saveView(other.id, "beta", "type=payOut");
    const views = await listSavedViews(me.id);
    expect(views.map((v) => [v.name, v.query])).toEqual([
      ["alpha", "type=payIn"],
      ["zeta", "status=failed"],
    ]);
    expect(Object.keys(views[0]!).sort()).toEqual(["id", "name", "query"]);
  });

  it("saving under an existing name replaces its query and keeps its id", async () => {
    const me = await createStaff("finance");
    const first = await saveView(me.id, "mine", "status=failed");
    const again = await saveView(me.id, "mine", "status=success");
    expect(again).toEqual({ id: first.id, name: "mine", query: "status=success" });
    expect(await listSavedViews(me.id)).toEqual([{ id: first.id, name: "mine", query: "status=success" }]);
  });

  it("only the owner deletes a view; a second delete finds nothing", async () => {
    const me = await createStaff("support");
    const other = await createStaff("support");
    const view = await saveView(me.id, "keep", "q=1234");
    expect(await deleteView(other.id, view.id)).toBe(false);
    expect(await listSavedViews(me.id)).toHaveLength(1);
    expect(await deleteView(me.id, view.id)).toBe(true);
    expect(await deleteView(me.id, view.id)).toBe(false);
    expect(await listSavedViews(me.id)).toEqual([]);
  });
});
