/** A message box: `error` is announced at once (role=alert), the others politely (role=status). */
export function Alert({
  tone,
  children,
  testId,
}: {
  tone: "error" | "warning" | "success" | "info";
  children: React.ReactNode;
  testId?: string;
}) {
  const styles = {
    error: "bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200",
    warning: "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
    success: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
    info: "bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
  } as const;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={`rounded-md px-3 py-2 text-sm ${styles[tone]}`}
    >
      {children}
    </div>
  );
}
