const tones = {
  grey: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  darkGrey: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  sky: "bg-sky-100 text-sky-800 dark:bg-sky-900/40 dark:text-sky-200",
  violet: "bg-violet-100 text-violet-800 dark:bg-violet-900/40 dark:text-violet-200",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  indigo: "bg-indigo-100 text-indigo-800 dark:bg-indigo-900/40 dark:text-indigo-200",
  green: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200",
  red: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
} as const;

export type BadgeTone = keyof typeof tones;

/** A small coloured label for a status or an outcome. */
export function Badge({
  tone,
  testId,
  children,
}: {
  tone: BadgeTone;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <span
      data-testid={testId}
      className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/**
 * The badge of a closed set of values (statuses, outcomes): each value's tone from `tones`, its words
 * from `useLabel`, a hook that reads the catalog.
 */
export function toneBadge<V extends string>(
  tones: Record<V, BadgeTone>,
  testId: string,
  useLabel: () => (value: V) => string,
) {
  return function ToneBadge({ value }: { value: V }) {
    const label = useLabel();
    return (
      <Badge tone={tones[value]} testId={testId}>
        {label(value)}
      </Badge>
    );
  };
}
