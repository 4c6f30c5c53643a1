"use client";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * A header drop-down built on <details> (works before hydration); closes when the page changes, on
 * Escape and on a click outside it.
 */
export function NavMenu({
  summary,
  children,
  align = "left",
  testId,
}: {
  summary: React.ReactNode;
  children: React.ReactNode;
  align?: "left" | "right";
  testId?: string;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  useEffect(() => {
    const close = (event: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !details.contains(event.target as Node)) {
        details.open = false;
      }
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={ref} className="group relative" data-testid={testId}>
      <summary className="flex cursor-pointer list-none items-center gap-1 whitespace-nowrap rounded-md px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
        {summary}
        <span aria-hidden className="text-xs text-zinc-400 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div
        className={`absolute z-20 mt-1 min-w-48 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 ${
          align === "right" ? "right-0" : "left-0"
        }`}
      >
        {children}
      </div>
    </details>
  );
}
