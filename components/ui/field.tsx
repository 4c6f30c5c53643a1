import type { InputHTMLAttributes } from "react";
import { controlClass, Labelled } from "@/components/ui/labelled";

/** A labelled input whose errors are announced through aria-describedby. */
export function Field({
  label,
  name,
  errors,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; errors?: string[] }) {
  return (
    <Labelled
      label={label}
      name={name}
      errors={errors}
      control={(a11y) => <input {...a11y} className={controlClass} {...input} />}
    />
  );
}
