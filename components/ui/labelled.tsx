import type { ReactNode } from "react";

export const controlClass =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900";

export type ControlA11y = {
  id: string;
  name: string;
  "aria-invalid": boolean;
  "aria-describedby": string | undefined;
};

/**
 * A label, a form control and its errors, announced through aria-describedby. `control` receives the
 * attributes that tie it to the label and the errors.
 */
export function Labelled({
  label,
  name,
  errors,
  control,
}: {
  label: string;
  name: string;
  errors?: string[];
  control: (a11y: ControlA11y) => ReactNode;
}) {
  const errorId = `${name}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="space-y-1">
      <label htmlFor={name} className="block text-sm font-medium">
        {label}
      </label>
      {control({
        id: name,
        name,
        "aria-invalid": invalid,
        "aria-describedby": invalid ? errorId : undefined,
      })}
      {invalid && (
        <p id={errorId} className="text-sm text-red-600 dark:text-red-400">
          {errors!.join(" ")}
        </p>
      )}
    </div>
  );
}

type LabelledProps = { label: string; name: string; errors?: string[] };

/** A labelled control component (an input, a select...) from how it draws its control. */
export function labelledControl<P extends object>(draw: (a11y: ControlA11y, props: P) => ReactNode) {
  return function LabelledControl({ label, name, errors, ...props }: P & LabelledProps) {
    return <Labelled label={label} name={name} errors={errors} control={(a11y) => draw(a11y, props as P)} />;
  };
}
