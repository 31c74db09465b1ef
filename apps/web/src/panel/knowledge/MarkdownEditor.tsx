"use client";

// The article editor's Markdown field: a toolbar that writes Markdown around the selection
// (headings, lists, links, code; Ctrl/⌘+B, I, K), image upload by button, paste or drop (the image
// is stored on this server and `![description](address)` inserted), and a text area that grows
// with the article (and can be resized) instead of scrolling in a fixed box.
import { type ClipboardEvent, type DragEvent, type KeyboardEvent, useRef, useState } from "react";
import { useDescription } from "../ui/fields.tsx";
import { IMAGE_ACCEPT, uploadImage } from "../ui/upload-image.ts";
import { altFromFileName, formatMarkdown, imageMarkdown, type MarkdownFormat, type TextEdit } from "./markdown-format.ts";
import "./editor.css";

interface ToolbarButton {
  format: MarkdownFormat;
  label: string;
  /** What the button shows (short; its name is `label`). */
  face: string;
  /** Ctrl (⌘ on a Mac) with this key. */
  key?: string;
}

const BUTTONS: ToolbarButton[] = [
  { format: "heading", label: "Heading", face: "H" },
  { format: "bold", label: "Bold", face: "B", key: "b" },
  { format: "italic", label: "Italic", face: "I", key: "i" },
  { format: "bulletList", label: "Bulleted list", face: "• List" },
  { format: "numberedList", label: "Numbered list", face: "1. List" },
  { format: "link", label: "Link", face: "Link", key: "k" },
  { format: "code", label: "Inline code", face: "</>" },
  { format: "codeBlock", label: "Code block", face: "{ }" },
];

interface MarkdownEditorProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string;
}

export function MarkdownEditor({ label, name, value, onChange, hint, error }: MarkdownEditorProps) {
  const { id, describedBy, invalid, extras } = useDescription(error, hint);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(0);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  // The toolbar is one stop for Tab; the arrow keys, Home and End move between its buttons.
  const [activeTool, setActiveTool] = useState(0);
  const toolbar = useRef<HTMLDivElement>(null);

  function onToolbarKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const tools = [...(toolbar.current?.querySelectorAll<HTMLButtonElement>("button.md-tool") ?? [])];
    const moves: Record<string, number> = { ArrowRight: activeTool + 1, ArrowLeft: activeTool - 1, Home: 0, End: tools.length - 1 };
    const next = moves[event.key];
    if (next === undefined || tools.length === 0) return;
    event.preventDefault();
    const index = (next + tools.length) % tools.length;
    setActiveTool(index);
    tools[index]?.focus();
  }

  /** Applies an edit as typing would (so the browser's undo takes it back), then selects what it says. */
  function apply(edit: TextEdit) {
    const element = textarea.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(edit.start, edit.end);
    // execCommand keeps the edit in the undo history; where it is missing, set the value directly.
    const typed = typeof document.execCommand === "function" && document.execCommand("insertText", false, edit.text);
    if (!typed) onChange(element.value.slice(0, edit.start) + edit.text + element.value.slice(edit.end));
    requestAnimationFrame(() => element.setSelectionRange(edit.selection.start, edit.selection.end));
  }

  function format(which: MarkdownFormat) {
    const element = textarea.current;
    if (!element) return;
    apply(formatMarkdown(which, element.value, { start: element.selectionStart, end: element.selectionEnd }));
  }

  async function upload(files: File[]) {
    setUploadError(null);
    setUploaded(null);
    for (const file of files) {
      setUploading((count) => count + 1);
      try {
        const image = await uploadImage(file);
        const element = textarea.current;
        if (element)
          apply(
            imageMarkdown(
              element.value,
              { start: element.selectionStart, end: element.selectionEnd },
              altFromFileName(file.name),
              image.url,
            ),
          );
        setUploaded(`Image “${file.name}” uploaded and inserted: describe it between the brackets.`);
      } catch (caught) {
        setUploadError(`“${file.name}” was not uploaded. ${caught instanceof Error ? caught.message : ""}`.trim());
      } finally {
        setUploading((count) => count - 1);
      }
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const button = BUTTONS.find((entry) => entry.key === event.key.toLowerCase());
    if (!button) return;
    event.preventDefault();
    format(button.format);
  }

  const imagesOf = (list: FileList | null | undefined) => [...(list ?? [])].filter((file) => file.type.startsWith("image/"));

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const images = imagesOf(event.clipboardData.files);
    if (images.length === 0) return;
    event.preventDefault();
    void upload(images);
  }

  function onDrop(event: DragEvent<HTMLTextAreaElement>) {
    const images = imagesOf(event.dataTransfer.files);
    if (images.length === 0) return;
    event.preventDefault();
    void upload(images);
  }

  const statusText = uploading > 0 ? "Uploading the image…" : (uploadError ?? uploaded ?? "");
  return (
    <div className="field markdown-editor">
      <label htmlFor={id}>{label}</label>
      <div ref={toolbar} className="md-toolbar" role="toolbar" aria-label="Formatting" aria-controls={id} onKeyDown={onToolbarKeyDown}>
        {BUTTONS.map((button, index) => (
          <button
            key={button.format}
            type="button"
            className="md-tool"
            tabIndex={index === activeTool ? 0 : -1}
            onFocus={() => setActiveTool(index)}
            aria-label={button.label}
            title={button.key ? `${button.label} (Ctrl+${button.key.toUpperCase()})` : button.label}
            aria-keyshortcuts={button.key ? `Control+${button.key.toUpperCase()} Meta+${button.key.toUpperCase()}` : undefined}
            // Keep the text area's selection: the button acts on it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => format(button.format)}
          >
            <span aria-hidden="true" className={`md-face md-face-${button.format}`}>
              {button.face}
            </span>
          </button>
        ))}
        <button
          type="button"
          className="md-tool"
          tabIndex={activeTool === BUTTONS.length ? 0 : -1}
          onFocus={() => setActiveTool(BUTTONS.length)}
          aria-label="Upload an image"
          title="Upload an image (PNG, JPEG, GIF or WebP; or paste or drop one into the text)"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => fileInput.current?.click()}
          disabled={uploading > 0}
        >
          <span aria-hidden="true" className="md-face">
            Image
          </span>
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_ACCEPT}
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = "";
            void upload(files);
          }}
        />
      </div>
      <textarea
        ref={textarea}
        id={id}
        name={name}
        className="mono md-text"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onDrop={onDrop}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        spellCheck
      />
      {extras}
      <p className={uploadError ? "field-error md-status" : "field-hint md-status"} role="status">
        {statusText}
      </p>
    </div>
  );
}
