import type { SelectHTMLAttributes } from "react";
import { controlClass, Labelled } from "@/components/ui/labelled";

/** A labelled select whose errors are announced through aria-describedby. */
export function Select({
  label,
  name,
  errors,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; name: string; errors?: string[] }) {
  return (
    <Labelled
      label={label}
      name={name}
      errors={errors}
      control={(a11y) => (
        <select {...a11y} className={controlClass} {...select}>
          {children}
        </select>
      )}
    />
  );
}
