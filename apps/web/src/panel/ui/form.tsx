"use client";

// Every panel form: the browser's own validation bubbles are off (the fields show messages written
// for people instead), and after a submit, focus moves to the first field marked invalid, whether
// the check ran in the browser at once or the server refused the input a moment later.
import { type ComponentProps, type Ref, useEffect, useRef } from "react";

type SubmitEvent = Parameters<NonNullable<ComponentProps<"form">["onSubmit"]>>[0];

/** How long after a submit a field the server marks invalid still takes the focus. */
const FOCUS_AFTER_SUBMIT_MS = 15_000;

function firstInvalid(form: HTMLFormElement): HTMLElement | null {
  return form.querySelector<HTMLElement>('[aria-invalid="true"]');
}

function setRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === "function") ref(value);
  else if (ref) ref.current = value;
}

export function PanelForm({ onSubmit, onInput, children, ref, ...form }: ComponentProps<"form">) {
  const formRef = useRef<HTMLFormElement | null>(null);
  const submittedAt = useRef<number | null>(null);

  function focusFirstInvalid(): void {
    const element = formRef.current && firstInvalid(formRef.current);
    if (!element || submittedAt.current === null) return;
    if (Date.now() - submittedAt.current > FOCUS_AFTER_SUBMIT_MS) {
      submittedAt.current = null;
      return;
    }
    submittedAt.current = null;
    element.focus();
  }

  // A refusal from the server arrives after the submit: the field's aria-invalid appears then.
  // One observer for the form's life (disconnecting would drop the records of the last render).
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusFirstInvalid reads refs only.
  useEffect(() => {
    const element = formRef.current;
    if (!element) return;
    const observer = new MutationObserver(() => focusFirstInvalid());
    observer.observe(element, { subtree: true, attributes: true, attributeFilter: ["aria-invalid"] });
    return () => observer.disconnect();
  }, []);

  function submit(event: SubmitEvent) {
    submittedAt.current = Date.now();
    onSubmit?.(event);
    // Errors found in the browser (or the same errors as before) are marked by this render.
    requestAnimationFrame(() => focusFirstInvalid());
  }

  return (
    <form
      ref={(element) => {
        formRef.current = element;
        setRef(ref, element);
      }}
      noValidate
      {...form}
      onSubmit={submit}
      onInput={(event) => {
        // Typing after a submit: the person chose where to be.
        submittedAt.current = null;
        onInput?.(event);
      }}
    >
      {children}
    </form>
  );
}
