import type { SelectHTMLAttributes } from "react";

/** A labelled select whose errors are announced through aria-describedby. */
export function Select({
  label,
  name,
  errors,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; name: string; errors?: string[] }) {
  const errorId = `${name}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="space-y-1">
      <label htmlFor={name} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={name}
        name={name}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
        className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900"
        {...select}
      >
        {children}
      </select>
      {invalid && (
        <p id={errorId} className="text-sm text-red-600 dark:text-red-400">
          {errors!.join(" ")}
        </p>
      )}
    </div>
  );
}
