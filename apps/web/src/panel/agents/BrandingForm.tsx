"use client";

// "Help centre & widget": the agent's public look (core's branding rules), with a live preview of
// the help centre's header and the widget as the settings are typed.

import { WIDGET_SUGGESTIONS_MAX } from "@parley/core/agents/limits";
import {
  ACCEPTED_IMAGE_TYPES_TEXT,
  type Branding,
  DEFAULT_WIDGET_GREETING,
  DEFAULT_WIDGET_TITLE,
  IMAGE_UPLOAD_MAX_BYTES,
  isUploadedImagePath,
  textColorOn,
} from "@parley/core/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { nestedFieldErrors } from "../errors.ts";
import { type RouterOutputs, useTRPC } from "../trpc.ts";
import { ActionButton } from "../ui/buttons.tsx";
import { TextAreaField, TextField } from "../ui/fields.tsx";
import { PanelForm } from "../ui/form.tsx";
import { ActionStatus } from "../ui/status.tsx";
import { IMAGE_ACCEPT, uploadImage } from "../ui/upload-image.ts";
import "./branding.css";

type Agent = RouterOutputs["agents"]["get"];
type Suggestion = Branding["suggestions"][number];

const HEX = /^#[0-9a-f]{6}$/i;

export function BrandingForm({ agent }: { agent: Agent }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Branding>(agent.branding);
  const [footerLabel, setFooterLabel] = useState(agent.branding.footerLink?.label ?? "");
  const [footerUrl, setFooterUrl] = useState(agent.branding.footerLink?.url ?? "");
  const articles = useQuery(trpc.articles.list.queryOptions({}));
  const update = useMutation(
    trpc.agents.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.agents.get.queryFilter({ id: agent.id })),
    }),
  );
  // A field's error from the last save goes once the field is changed: the correction is not refused yet.
  const [changedSinceSave, setChangedSinceSave] = useState<ReadonlySet<string>>(new Set());
  const saveErrors = nestedFieldErrors(update.error, "branding");
  const errors = Object.fromEntries(Object.entries(saveErrors).filter(([field]) => !changedSinceSave.has(field.split(".")[0]!)));
  const [logoUpload, setLogoUpload] = useState<{ pending: boolean; error: string | null }>({ pending: false, error: null });
  /** The logo address that failed to load in the preview (a warning until it changes). */
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);

  function set<K extends keyof Branding>(key: K, value: Branding[K]) {
    if (update.isSuccess) update.reset();
    setChangedSinceSave((current) => new Set(current).add(key));
    setDraft((current) => ({ ...current, [key]: value }));
  }

  async function uploadLogo(file: File | undefined) {
    if (!file) return;
    setLogoUpload({ pending: true, error: null });
    try {
      const image = await uploadImage(file);
      set("logoUrl", image.path);
      setLogoUpload({ pending: false, error: null });
    } catch (caught) {
      setLogoUpload({ pending: false, error: caught instanceof Error ? caught.message : "The logo was not uploaded." });
    }
  }

  function setSuggestion(index: number, change: Partial<Suggestion>) {
    set(
      "suggestions",
      draft.suggestions.map((suggestion, at) => (at === index ? { ...suggestion, ...change } : suggestion)),
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const footerLink = footerLabel.trim() || footerUrl.trim() ? { label: footerLabel, url: footerUrl } : null;
    setChangedSinceSave(new Set());
    update.mutate({ id: agent.id, branding: { ...draft, footerLink } });
  }

  const helpName = draft.helpName.trim() || agent.helpCentreName;
  return (
    <div className="branding">
      <PanelForm onSubmit={submit} className="form">
        <fieldset>
          <legend>Help centre</legend>
          <TextField
            label="Help centre name"
            name="helpName"
            value={draft.helpName}
            placeholder={agent.helpCentreName}
            onChange={(event) => set("helpName", event.target.value)}
            error={errors.helpName}
            hint="The public name in the header, titles and footer. Empty: the default shown."
            autoComplete="off"
          />
          <TextField
            label="Logo address"
            name="logoUrl"
            value={draft.logoUrl}
            placeholder="https://www.example.com/logo.png"
            onChange={(event) => set("logoUrl", event.target.value)}
            error={errors.logoUrl}
            hint={`An https:// image, or upload one (${ACCEPTED_IMAGE_TYPES_TEXT}, up to ${IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024} MB); shown 32 px high next to the name.`}
            autoComplete="off"
            spellCheck={false}
          />
          <div className="button-row logo-upload">
            <label className={`btn btn-secondary${logoUpload.pending ? " is-busy" : ""}`}>
              {logoUpload.pending ? "Uploading…" : "Upload a logo"}
              <input
                type="file"
                className="visually-hidden"
                accept={IMAGE_ACCEPT}
                disabled={logoUpload.pending}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = "";
                  void uploadLogo(file);
                }}
              />
            </label>
            {draft.logoUrl ? <ActionButton onClick={() => set("logoUrl", "")}>Remove the logo</ActionButton> : null}
          </div>
          {logoUpload.error ? <p className="field-error">The logo was not uploaded. {logoUpload.error}</p> : null}
          {brokenLogo !== null && brokenLogo === draft.logoUrl ? (
            <p className="status-warning" role="alert">
              The logo did not load from this address (a broken link, or not an image): the help centre shows its name instead. Check the
              address or upload the logo.
            </p>
          ) : null}
          <ColorField
            label="Help centre colour"
            name="accentColor"
            value={draft.accentColor}
            onChange={(value) => set("accentColor", value)}
            error={errors.accentColor}
          />
          <TextField
            label="Footer link text"
            name="footerLabel"
            value={footerLabel}
            placeholder="Back to example.com"
            onChange={(event) => {
              setChangedSinceSave((current) => new Set(current).add("footerLink"));
              setFooterLabel(event.target.value);
            }}
            error={errors["footerLink.label"]}
            autoComplete="off"
          />
          <TextField
            label="Footer link address"
            name="footerUrl"
            type="url"
            value={footerUrl}
            placeholder="https://www.example.com"
            onChange={(event) => {
              setChangedSinceSave((current) => new Set(current).add("footerLink"));
              setFooterUrl(event.target.value);
            }}
            error={errors["footerLink.url"] ?? errors.footerLink}
          />
        </fieldset>
        <fieldset>
          <legend>Widget</legend>
          <TextField
            label="Widget title"
            name="widgetTitle"
            value={draft.widgetTitle}
            placeholder={DEFAULT_WIDGET_TITLE}
            onChange={(event) => set("widgetTitle", event.target.value)}
            error={errors.widgetTitle}
            autoComplete="off"
          />
          <TextAreaField
            label="Greeting"
            name="widgetGreeting"
            rows={2}
            value={draft.widgetGreeting}
            placeholder={DEFAULT_WIDGET_GREETING}
            onChange={(event) => set("widgetGreeting", event.target.value)}
            error={errors.widgetGreeting}
            hint="The first message a visitor sees when the widget opens."
          />
          <ColorField
            label="Widget colour"
            name="widgetAccentColor"
            value={draft.widgetAccentColor}
            onChange={(value) => set("widgetAccentColor", value)}
            error={errors.widgetAccentColor}
          />
          <div className="field">
            <span className="label" id="suggestions-label">
              Suggestions ({draft.suggestions.length} of {WIDGET_SUGGESTIONS_MAX})
            </span>
            <span className="field-hint">
              Shown when the widget opens: a question is sent on click; with an article chosen, the article opens.
            </span>
            {errors.suggestions ? <span className="field-error">{errors.suggestions}</span> : null}
            <ol className="suggestion-rows" aria-labelledby="suggestions-label">
              {draft.suggestions.map((suggestion, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, never reordered
                <li key={index} className="suggestion-row">
                  <TextField
                    label={`Suggestion ${index + 1}`}
                    name={`suggestion-${index}`}
                    value={suggestion.text}
                    onChange={(event) => setSuggestion(index, { text: event.target.value })}
                    error={errors[`suggestions.${index}`]}
                    autoComplete="off"
                  />
                  <div className="field">
                    <label htmlFor={`suggestion-article-${index}`}>Opens</label>
                    <select
                      id={`suggestion-article-${index}`}
                      value={suggestion.articleId ?? ""}
                      onChange={(event) => setSuggestion(index, { articleId: event.target.value || null })}
                    >
                      <option value="">Nothing: sends the question</option>
                      {(articles.data ?? []).map((article) => (
                        <option key={article.id} value={article.id}>
                          {article.title}
                        </option>
                      ))}
                    </select>
                  </div>
                  <ActionButton
                    onClick={() =>
                      set(
                        "suggestions",
                        draft.suggestions.filter((_, at) => at !== index),
                      )
                    }
                    aria-label={`Remove suggestion ${index + 1}`}
                  >
                    Remove
                  </ActionButton>
                </li>
              ))}
            </ol>
            {draft.suggestions.length < WIDGET_SUGGESTIONS_MAX ? (
              <ActionButton onClick={() => set("suggestions", [...draft.suggestions, { text: "", articleId: null }])}>
                Add a suggestion
              </ActionButton>
            ) : null}
          </div>
        </fieldset>
        <div className="form-actions">
          <ActionButton type="submit" variant="primary" pending={update.isPending}>
            Save look
          </ActionButton>
        </div>
        <ActionStatus error={update.error ?? undefined} success={update.isSuccess ? "Help centre and widget saved." : undefined} />
      </PanelForm>
      <BrandingPreview branding={draft} helpName={helpName} onLogoError={setBrokenLogo} brokenLogo={brokenLogo} />
    </div>
  );
}

function ColorField(props: { label: string; name: string; value: string; error?: string; onChange(value: string): void }) {
  const valid = HEX.test(props.value);
  return (
    <div className="color-field">
      <TextField
        label={props.label}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        error={props.error}
        hint={
          valid
            ? `Text on it: ${textColorOn(props.value.toLowerCase()) === "#ffffff" ? "white" : "black"} (whichever reads better).`
            : "Like #0b57d0."
        }
        spellCheck={false}
        autoComplete="off"
      />
      <input
        type="color"
        aria-label={`${props.label} picker`}
        value={valid ? props.value.toLowerCase() : "#000000"}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** A small rendering of the help centre's header and the open widget with the draft settings. */
function BrandingPreview({
  branding,
  helpName,
  brokenLogo,
  onLogoError,
}: {
  branding: Branding;
  helpName: string;
  brokenLogo: string | null;
  onLogoError: (src: string) => void;
}) {
  const help = HEX.test(branding.accentColor) ? branding.accentColor : "#0b57d0";
  const widget = HEX.test(branding.widgetAccentColor) ? branding.widgetAccentColor : "#0b57d0";
  const suggestions = branding.suggestions.filter((suggestion) => suggestion.text.trim());
  return (
    <section className="branding-preview" aria-label="Preview">
      <h3>Preview</h3>
      <div className="preview-help" style={{ background: help, color: textColorOn(help.toLowerCase()) }}>
        {(/^https:\/\//.test(branding.logoUrl) || isUploadedImagePath(branding.logoUrl)) && brokenLogo !== branding.logoUrl ? (
          // biome-ignore lint/performance/noImgElement: the admin's logo as the help centre shows it
          <img key={branding.logoUrl} src={branding.logoUrl} alt="" height={24} onError={() => onLogoError(branding.logoUrl)} />
        ) : null}
        <strong data-testid="preview-help-name">{helpName}</strong>
        <span className="preview-search">Search articles</span>
      </div>
      <div className="preview-widget">
        <div className="preview-widget-header" style={{ background: widget, color: textColorOn(widget.toLowerCase()) }}>
          <strong data-testid="preview-widget-title">{branding.widgetTitle.trim() || DEFAULT_WIDGET_TITLE}</strong>
        </div>
        <p className="preview-bubble">{branding.widgetGreeting.trim() || DEFAULT_WIDGET_GREETING}</p>
        {suggestions.length > 0 ? (
          <ul className="preview-suggestions">
            {suggestions.map((suggestion, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a read-only rendering of the rows above
              <li key={index} style={{ borderColor: widget }}>
                {suggestion.articleId ? "📄 " : ""}
                {suggestion.text}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
