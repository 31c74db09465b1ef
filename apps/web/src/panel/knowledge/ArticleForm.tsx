"use client";

import { ACCEPTED_IMAGE_TYPES_TEXT, IMAGE_UPLOAD_MAX_BYTES, LANGUAGE_CODES, LANGUAGE_NAMES, type LanguageCode } from "@parley/core/browser";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { fieldErrors } from "../errors.ts";
import { useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { SelectField, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";
import { MarkdownEditor } from "./MarkdownEditor.tsx";
import { MarkdownPreview } from "./MarkdownPreview.tsx";

export interface ArticleValues {
  title: string;
  /** Empty: made from the title (new article) or kept as it is. */
  slug: string;
  sourceId: string;
  /** Empty: detected from the text. */
  language: string;
  /** The original this article translates; empty: an original. */
  translationOfId: string;
  content: string;
}

/** What the form submits: no slug when the field was left empty, no language when it is detected, no original for an original. */
export type ArticleSubmission = Omit<ArticleValues, "slug" | "language" | "translationOfId"> & {
  slug?: string;
  language: LanguageCode | null;
  translationOfId: string | null;
};

/** An article of a translation group, as the editor names it. */
interface TranslatedArticle {
  id: string;
  title: string;
  language: string | null;
}

function languageName(code: string): string {
  return (LANGUAGE_NAMES as Record<string, string>)[code] ?? code;
}

interface ArticleFormProps {
  initial: ArticleValues;
  /** The article being edited (absent for a new one), with its place in a translation group. */
  editing?: { id: string; detectedLanguage: string | null; translationOf: TranslatedArticle | null; translations: TranslatedArticle[] };
  submitLabel: string;
  pending: boolean;
  error: unknown;
  success?: string;
  onSubmit: (values: ArticleSubmission) => void;
  /** Called on any edit (to clear an earlier success note). */
  onEdit?: () => void;
}

export function ArticleForm({ initial, editing, submitLabel, pending, error, success, onSubmit, onEdit }: ArticleFormProps) {
  const trpc = useTRPC();
  const sources = useQuery(trpc.sources.list.queryOptions());
  const originals = useQuery(trpc.articles.translationOriginals.queryOptions({ articleId: editing?.id }));
  const [values, setValues] = useState<ArticleValues>(initial);
  // The values as last stored (loaded, or saved since): anything else is an unsaved change.
  const [stored, setStored] = useState<ArticleValues>(initial);
  const submitted = useRef<ArticleValues | null>(null);
  useEffect(() => {
    if (success && submitted.current) {
      setStored(submitted.current);
      submitted.current = null;
    }
  }, [success]);
  const edited = (Object.keys(values) as (keyof ArticleValues)[]).some((key) => values[key] !== stored[key]);
  const errors = fieldErrors(error);

  function set<K extends keyof ArticleValues>(key: K, value: ArticleValues[K]) {
    setValues((current) => ({ ...current, [key]: value }));
    onEdit?.();
  }

  /** A field's name, value, change handler and error: what every field of the form binds the same way. */
  function bound(name: keyof ArticleValues) {
    return {
      name,
      value: values[name],
      onChange: (event: { target: { value: string } }) => set(name, event.target.value),
      error: errors[name],
    };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    submitted.current = values;
    onSubmit({
      ...values,
      slug: values.slug.trim() || undefined,
      language: (values.language || null) as LanguageCode | null,
      translationOfId: values.translationOfId || null,
    });
  }

  // The current original stays a choice even when the list of originals is cut short.
  const originalChoices = [...(originals.data ?? [])];
  if (editing?.translationOf && !originalChoices.some((choice) => choice.id === editing.translationOf?.id))
    originalChoices.unshift({ ...editing.translationOf, sourceName: "" });
  const translations = editing?.translations ?? [];

  return (
    <PanelForm onSubmit={submit} className="form">
      <TextField label="Title" {...bound("title")} autoComplete="off" />
      <TextField
        label="Slug"
        {...bound("slug")}
        autoComplete="off"
        spellCheck={false}
        hint="The help page's address: lowercase letters, digits and hyphens. Left empty, it is made from the title."
      />
      <SelectField label="Source" {...bound("sourceId")}>
        {values.sourceId === "" ? <option value="">Choose a source</option> : null}
        {(sources.data ?? []).map((source) => (
          <option key={source.id} value={source.id}>
            {source.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Language"
        {...bound("language")}
        hint="The help centre marks the page with it, and the agent answers visitors in this language from it first."
      >
        {/* Short enough for a phone's select: the language detected when the article was last saved. */}
        <option value="">
          {editing?.detectedLanguage ? `Detected: ${languageName(editing.detectedLanguage)}` : "Detect from the text"}
        </option>
        {LANGUAGE_CODES.map((code) => (
          <option key={code} value={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Translation of"
        {...bound("translationOfId")}
        // An original with translations cannot be a translation too (groups are one level deep).
        disabled={translations.length > 0}
        hint={
          translations.length > 0
            ? `This article is the original of ${translations.map((translation) => `“${translation.title}”`).join(", ")}.`
            : "The original this article translates: the help page links each language of an article to the others."
        }
      >
        <option value="">None: this is an original</option>
        {originalChoices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.title}
            {choice.language ? ` (${languageName(choice.language)})` : ""}
          </option>
        ))}
      </SelectField>
      <div className="editor">
        <MarkdownEditor
          label="Content (Markdown)"
          name="content"
          value={values.content}
          onChange={(content) => set("content", content)}
          error={errors.content}
          hint={`The toolbar writes Markdown (Ctrl+B bold, Ctrl+I italic, Ctrl+K link). Images: ${ACCEPTED_IMAGE_TYPES_TEXT}, up to ${IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024} MB, by the Image button, paste or drop. Scripts, event handlers and unsafe links are removed.`}
        />
        <div className="field">
          <span id="article-preview-label" className="label">
            Preview
          </span>
          <MarkdownPreview markdown={values.content} labelledBy="article-preview-label" />
        </div>
      </div>
      <div className="save-bar">
        <ActionButton type="submit" variant="primary" pending={pending}>
          {submitLabel}
        </ActionButton>
        <span className="save-state" aria-live="polite">
          {edited ? "Unsaved changes" : ""}
        </span>
        <ActionStatus error={error} success={success} />
      </div>
    </PanelForm>
  );
}
