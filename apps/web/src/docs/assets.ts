// The /docs page's own small script and stylesheet, served from our own origin. Only the names
// below are served.

export const DOCS_ASSETS_PATH = "/docs/assets";

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/**
 * Turns each sample's languages into tabs (one language chosen for the whole page, arrow keys move
 * between tabs) and wires the copy buttons. Without it, every sample shows one under another.
 */
const DOCS_SCRIPT = `"use strict";
(function () {
  document.documentElement.classList.add("js");
  var tabs = Array.prototype.slice.call(document.querySelectorAll('[role="tab"][data-language]'));
  function choose(language) {
    document.querySelectorAll(".samples").forEach(function (samples) {
      var own = samples.querySelectorAll('[role="tab"]');
      var has = Array.prototype.some.call(own, function (tab) { return tab.getAttribute("data-language") === language; });
      var chosen = has ? language : own[0] && own[0].getAttribute("data-language");
      own.forEach(function (tab) {
        var selected = tab.getAttribute("data-language") === chosen;
        tab.setAttribute("aria-selected", String(selected));
        tab.tabIndex = selected ? 0 : -1;
        var panel = document.getElementById(tab.getAttribute("aria-controls"));
        if (panel) panel.hidden = !selected;
      });
    });
  }
  tabs.forEach(function (tab) {
    tab.addEventListener("click", function () { choose(tab.getAttribute("data-language")); });
    tab.addEventListener("keydown", function (event) {
      var own = Array.prototype.slice.call(tab.parentElement.querySelectorAll('[role="tab"]'));
      var index = own.indexOf(tab);
      var next = event.key === "ArrowRight" ? own[(index + 1) % own.length]
        : event.key === "ArrowLeft" ? own[(index - 1 + own.length) % own.length]
        : event.key === "Home" ? own[0] : event.key === "End" ? own[own.length - 1] : null;
      if (!next) return;
      event.preventDefault();
      choose(next.getAttribute("data-language"));
      next.focus();
    });
  });
  choose("curl");
  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target) return;
      var done = function (label) {
        button.textContent = label;
        setTimeout(function () { button.textContent = "Copy"; }, 2000);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(target.textContent).then(function () { done("Copied"); }, function () { selectText(target); done("Press Ctrl+C"); });
      } else {
        selectText(target);
        done("Press Ctrl+C");
      }
    });
  });
})();
`;

const DOCS_STYLE = `*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; color: #1f2933; background: #fff; line-height: 1.55; }
a { color: #1d4ed8; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875em; overflow-wrap: anywhere; }
:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
.skip-link { position: absolute; left: -10000px; top: 8px; background: #fff; padding: 8px 12px; z-index: 10; }
.skip-link:focus { left: 8px; }
.docs-header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 24px; padding: 12px 24px; border-bottom: 1px solid #d9dee3; }
.docs-header p { margin: 0; color: #52606d; font-size: 14px; }
.docs-header .docs-brand { font-weight: 700; font-size: 18px; }
.docs-brand a { color: #1f2933; text-decoration: none; }
.docs-layout { display: grid; grid-template-columns: 240px minmax(0, 1fr); max-width: 1440px; margin: 0 auto; }
.docs-nav { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; padding: 24px 16px 24px 24px; border-right: 1px solid #d9dee3; font-size: 14px; }
.docs-nav ul { list-style: none; margin: 0; padding: 0; }
.docs-nav li { margin: 2px 0; }
.docs-nav ul ul { margin: 2px 0 10px 12px; }
.docs-nav a { color: #3e4c59; text-decoration: none; display: inline-block; padding: 2px 0; }
.docs-nav a:hover { color: #1d4ed8; text-decoration: underline; }
.docs-nav .nav-group { font-weight: 600; color: #1f2933; }
.docs-main { padding: 24px 40px 64px; min-width: 0; }
.docs-section { margin-bottom: 48px; }
.docs-section > h2 { font-size: 24px; margin: 0 0 8px; padding-top: 8px; }
.docs-intro h1 { font-size: 30px; margin: 0 0 12px; }
.docs-intro p, .docs-section > p { max-width: 48rem; }
.endpoint { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 32px; padding: 32px 0; border-top: 1px solid #d9dee3; scroll-margin-top: 8px; }
.endpoint h3 { font-size: 20px; margin: 0 0 8px; }
.endpoint h4 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.04em; color: #3e4c59; margin: 24px 0 4px; }
.endpoint-code { position: sticky; top: 16px; align-self: start; min-width: 0; }
.endpoint-route { font-size: 15px; }
.method { display: inline-block; font-size: 12px; font-weight: 700; padding: 1px 8px; border-radius: 4px; margin-right: 4px; }
.method-get { background: #dbeafe; color: #1e3a8a; }
.method-post { background: #dcfce7; color: #14532d; }
.method-delete { background: #fee2e2; color: #7f1d1d; }
.method-put, .method-patch { background: #fef3c7; color: #78350f; }
.fields { margin: 0; }
.field-row { border-top: 1px solid #e4e7eb; padding: 8px 0; }
.field-row dt { margin: 0 0 2px; }
.field-row dd { margin: 0; color: #3e4c59; font-size: 15px; }
.field-row dd p { margin: 0 0 6px; }
.field-row dd ul { margin: 0 0 6px; padding-left: 20px; }
.field-row .fields { margin: 6px 0 0 12px; }
.field-name { font-weight: 600; color: #1f2933; }
.field-type { color: #52606d; font-size: 13px; }
.field-required { color: #9a3412; font-size: 12px; font-weight: 600; }
.status { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 700; font-size: 14px; }
.status-2xx { color: #14532d; }
.status-4xx, .status-5xx { color: #9a3412; }
.sample-tabs { display: none; gap: 4px; border-bottom: 1px solid #d9dee3; margin-bottom: 8px; }
.js .sample-tabs { display: flex; flex-wrap: wrap; }
.sample-tabs [role="tab"] { background: none; border: 0; border-bottom: 2px solid transparent; padding: 6px 12px; font: inherit; font-size: 14px; color: #52606d; cursor: pointer; }
.sample-tabs [role="tab"][aria-selected="true"] { color: #1f2933; border-bottom-color: #1d4ed8; font-weight: 600; }
.sample-panel + .sample-panel { margin-top: 12px; }
.code-title { font-size: 13px; color: #52606d; margin: 12px 0 4px; }
.code { position: relative; }
.code pre { margin: 0; padding: 12px 80px 12px 12px; background: #1f2933; color: #f5f7fa; border-radius: 6px; font-size: 13px; line-height: 1.5; white-space: pre-wrap; overflow-wrap: anywhere; }
.code pre code { font-size: inherit; }
.code button.copy { position: absolute; top: 8px; right: 8px; padding: 4px 12px; border: 1px solid #9aa5b1; border-radius: 4px; background: #f5f7fa; color: #1f2933; cursor: pointer; font: inherit; font-size: 13px; }
.errors table { border-collapse: collapse; width: 100%; font-size: 14px; }
.errors th, .errors td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid #cbd2d9; }
.errors thead th { border-bottom: 2px solid #9aa5b1; }
.errors tbody tr:target { background: #fff3c4; }
.errors code { font-size: 13px; }
@media (max-width: 1100px) {
  .endpoint { grid-template-columns: minmax(0, 1fr); gap: 16px; }
  .endpoint-code { position: static; }
}
/* A phone: the navigation above the reference, each error as a card of labelled lines. */
@media (max-width: 760px) {
  .docs-layout { grid-template-columns: minmax(0, 1fr); }
  .docs-header { padding: 12px 16px; }
  .docs-nav { position: static; max-height: none; border-right: 0; border-bottom: 1px solid #d9dee3; padding: 12px 16px; }
  .docs-nav > ul { display: flex; flex-wrap: wrap; gap: 4px 16px; }
  .docs-nav ul ul { display: none; }
  .docs-main { padding: 16px 16px 48px; }
  .docs-intro h1 { font-size: 26px; }
  .errors thead { display: none; }
  .errors tr { display: block; padding: 8px 0; border-bottom: 1px solid #cbd2d9; }
  .errors th, .errors td { display: block; border: 0; padding: 2px 10px; }
  .errors td::before { content: attr(data-label) ": "; font-weight: 600; }
}
`;

const ASSETS: Record<string, { contentType: string; content: string }> = {
  "docs.js": { contentType: JS, content: DOCS_SCRIPT },
  "docs.css": { contentType: CSS, content: DOCS_STYLE },
};

/** The asset's response, or null for a name that is not served. */
export function docsAssetResponse(name: string): Response | null {
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return null;
  return new Response(asset.content, {
    headers: { "content-type": asset.contentType, "cache-control": "public, max-age=3600" },
  });
}
