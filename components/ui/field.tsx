import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";
import { controlClass, labelledControl } from "@/components/ui/labelled";

/** A labelled input whose errors are announced through aria-describedby. */
export const Field = labelledControl<InputHTMLAttributes<HTMLInputElement>>((a11y, input) => (
  <input {...a11y} className={controlClass} {...input} />
));

/** A labelled text area whose errors are announced through aria-describedby. */
export const TextArea = labelledControl<TextareaHTMLAttributes<HTMLTextAreaElement>>((a11y, area) => (
  <textarea {...a11y} className={controlClass} {...area} />
));
