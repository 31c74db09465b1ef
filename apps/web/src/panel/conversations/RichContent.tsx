"use client";

// Rich content as the engines produce it (packages/core/src/engine/types.ts: "articles" and
// "buttons" items). Anything else is shown as JSON rather than dropped, so nothing is hidden.
import { safeLinkUrl } from "@parley/core/browser";

interface ArticleItem {
  type: "articles";
  articles: Array<{ id: string; title: string; url: string }>;
}
interface ButtonsItem {
  type: "buttons";
  buttons: Array<{ label: string; action: string; value?: string }>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isArticles(item: unknown): item is ArticleItem {
  return isObject(item) && item.type === "articles" && Array.isArray(item.articles);
}

function isButtons(item: unknown): item is ButtonsItem {
  return isObject(item) && item.type === "buttons" && Array.isArray(item.buttons);
}

export function RichContent({ items }: { items: unknown }) {
  if (!Array.isArray(items) || items.length === 0) return null;
  return (
    <div className="rich-content">
      {items.map((item, index) => {
        const key = `${index}`;
        if (isArticles(item)) {
          return (
            <div key={key}>
              <p className="small muted">Suggested articles</p>
              <ul className="link-list">
                {item.articles.map((article) => (
                  <li key={article.id}>
                    <a href={safeLinkUrl(article.url) ?? "#"} target="_blank" rel="noopener noreferrer">
                      {article.title}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          );
        }
        if (isButtons(item)) {
          return (
            <div key={key}>
              <p className="small muted">Buttons offered</p>
              <ul className="chips">
                {item.buttons.map((button) => (
                  <li key={`${button.label}:${button.action}`} className="chip">
                    {button.label} <span className="muted">({button.action})</span>
                  </li>
                ))}
              </ul>
            </div>
          );
        }
        return (
          <pre key={key} className="tool-args">
            {JSON.stringify(item, null, 2)}
          </pre>
        );
      })}
    </div>
  );
}
