"use client";

// Labelled form controls. Each links its hint and error to the control (aria-describedby) and
// marks it invalid (aria-invalid, styled the same everywhere), so a screen reader hears the
// message for the field. A group of choices (FieldGroup) marks each of its controls the same way.
import { type ComponentProps, createContext, type ReactNode, useContext, useId } from "react";

/** The error of the enclosing FieldGroup, which every control in it refers to. */
const GroupError = createContext<{ errorId: string } | null>(null);

interface FieldProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** A field's id, its described-by list, invalid state and the hint and error under it (for fields written elsewhere too). */
export function useDescription(error?: string, hint?: ReactNode) {
  const id = useId();
  const group = useContext(GroupError);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId, group?.errorId].filter(Boolean).join(" ") || undefined;
  const invalid = error || group ? true : undefined;
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
  return { id, describedBy, invalid, extras };
}

/**
 * A set of checkboxes or radios under one legend, with one message for the set (at least one
 * event, say): shown under the legend, and every control in the set is marked invalid.
 */
export function FieldGroup({
  legend,
  error,
  className,
  children,
}: {
  legend: ReactNode;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  const errorId = `${useId()}-error`;
  return (
    <fieldset className={className}>
      <legend className="label">{legend}</legend>
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
      <GroupError.Provider value={error ? { errorId } : null}>{children}</GroupError.Provider>
    </fieldset>
  );
}

export function TextField({ label, error, hint, ...input }: FieldProps & ComponentProps<"input">) {
  const { id, describedBy, invalid, extras } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={invalid} aria-describedby={describedBy} {...input} />
      {extras}
    </div>
  );
}

export function TextAreaField({ label, error, hint, ...textarea }: FieldProps & ComponentProps<"textarea">) {
  const { id, describedBy, invalid, extras } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={invalid} aria-describedby={describedBy} {...textarea} />
      {extras}
    </div>
  );
}

export function SelectField({ label, error, hint, children, ...select }: FieldProps & ComponentProps<"select">) {
  const { id, describedBy, invalid, extras } = useDescription(error, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={invalid} aria-describedby={describedBy} {...select}>
        {children}
      </select>
      {extras}
    </div>
  );
}

export function CheckboxField({
  label,
  error,
  hint,
  type = "checkbox",
  ...input
}: FieldProps & Omit<ComponentProps<"input">, "type"> & { type?: "checkbox" | "radio" }) {
  const { id, describedBy, invalid, extras } = useDescription(error, hint);
  return (
    <div className="field field-checkbox">
      <input id={id} type={type} aria-invalid={invalid} aria-describedby={describedBy} {...input} />
      <label htmlFor={id}>{label}</label>
      {extras}
    </div>
  );
}
