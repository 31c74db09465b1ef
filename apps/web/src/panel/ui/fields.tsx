"use client";

// Labelled form controls. Each links its hint and error to the control (aria-describedby) and
// marks it invalid, so a screen reader hears the zod message for the field.
import { type ComponentProps, type ReactNode, useId } from "react";

interface FieldProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

function useDescription(error?: string, hint?: ReactNode) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const extras = (
    <>
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </>
  );
  return { id, describedBy, extras };
}

export function TextField({ label, error, hint, ...input }: FieldProps & ComponentProps<"input">) {
  const { id, describedBy, extras } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {extras}
    </div>
  );
}

export function TextAreaField({ label, error, hint, ...textarea }: FieldProps & ComponentProps<"textarea">) {
  const { id, describedBy, extras } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...textarea} />
      {extras}
    </div>
  );
}

export function SelectField({ label, error, hint, children, ...select }: FieldProps & ComponentProps<"select">) {
  const { id, describedBy, extras } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {children}
      </select>
      {extras}
    </div>
  );
}

export function CheckboxField({ label, error, hint, ...input }: FieldProps & Omit<ComponentProps<"input">, "type">) {
  const { id, describedBy, extras } = useDescription(error, hint);
  return (
    <div className="field field-checkbox">
      <input id={id} type="checkbox" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      <label htmlFor={id}>{label}</label>
      {extras}
    </div>
  );
}
