import "server-only";
import { getDb } from "@/lib/db";

export type SavedViewItem = { id: string; name: string; query: string };

/** A user's named views (filter, columns and page size as a query string), by name. */
export async function listSavedViews(userId: string): Promise<SavedViewItem[]> {
  return getDb().savedView.findMany({
    where: { userId },
    orderBy: { name: "asc" },
    select: { id: true, name: true, query: true },
  });
}

/** Creates the view, or replaces the query of the user's view with that name. */
export async function saveView(userId: string, name: string, query: string): Promise<SavedViewItem> {
  return getDb().savedView.upsert({
    where: { userId_name: { userId, name } },
    create: { userId, name, query },
    update: { query },
    select: { id: true, name: true, query: true },
  });
}

/** Deletes one of the user's own views; true when one was deleted. */
export async function deleteView(userId: string, id: string): Promise<boolean> {
  const { count } = await getDb().savedView.deleteMany({ where: { id, userId } });
  return count === 1;
}
