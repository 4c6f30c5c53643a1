"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { deleteViewAction, saveViewAction } from "@/lib/actions/operations";

type View = { id: string; name: string; query: string };

/** The user's named views: open one, save the current filter under a name, delete one. */
export function SavedViews({ views, currentQuery }: { views: View[]; currentQuery: string }) {
  const t = useTranslations("operations.views");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);

  const save = () =>
    startTransition(async () => {
      const result = await saveViewAction({ name, query: currentQuery });
      if (result.ok) {
        setName("");
        setError(null);
        router.refresh();
      } else {
        setError(
          "fieldErrors" in result
            ? (Object.values(result.fieldErrors).flat()[0] ?? result.message)
            : result.message,
        );
      }
    });

  const remove = (id: string) =>
    startTransition(async () => {
      const result = await deleteViewAction({ id });
      if (!result.ok) setError(result.message);
      router.refresh();
    });

  return (
    <section aria-label={t("label")} className="space-y-2">
      {views.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {views.map((v) => (
            <li
              key={v.id}
              className="flex items-center rounded-full border border-zinc-300 text-xs dark:border-zinc-700"
            >
              <Link href={v.query ? `/operations?${v.query}` : "/operations"} className="px-3 py-1">
                {v.name}
              </Link>
              <button
                type="button"
                aria-label={t("delete", { name: v.name })}
                className="px-2 py-1 text-zinc-500 hover:text-red-600"
                disabled={pending}
                onClick={() => remove(v.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label htmlFor="view-name" className="text-sm">
          {t("saveAs")}
        </label>
        <input
          id="view-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? "view-name-error" : undefined}
          className="w-40 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <Button type="submit" variant="secondary" disabled={pending || name.trim() === ""}>
          {t("save")}
        </Button>
        {error && (
          <p id="view-name-error" role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
