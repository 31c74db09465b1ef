// The widget's settings as it receives them at connect (in the `ready` frame): the agent's title,
// greeting, accent and suggestions (agents/branding.ts), resolved for visitors - an article suggestion
// becomes its title and help-page address while the article is visible, and is left out otherwise.

import { DEFAULT_WIDGET_GREETING, DEFAULT_WIDGET_TITLE, readBranding, textColorOn } from "../agents/branding.ts";
import { getVisibleArticle } from "../help/articles.ts";
import { helpArticleUrl } from "../help/urls.ts";
import type { PlatformContext } from "../platform/context.ts";
import type { WidgetConfig, WidgetSuggestion } from "./protocol.ts";

export type { WidgetConfig, WidgetSuggestion };

export async function widgetConfig(
  ctx: PlatformContext,
  agentId: string,
  stored: unknown,
  offers: { voice: boolean } = { voice: false },
): Promise<WidgetConfig> {
  const branding = readBranding(stored);
  const suggestions = await Promise.all(
    branding.suggestions.map(async (suggestion): Promise<WidgetSuggestion | null> => {
      if (!suggestion.articleId) return { type: "question", text: suggestion.text };
      const article = await getVisibleArticle(ctx.db, agentId, suggestion.articleId);
      return article ? { type: "article", title: suggestion.text, url: helpArticleUrl(ctx.appUrl, agentId, article.id) } : null;
    }),
  );
  return {
    title: branding.widgetTitle || DEFAULT_WIDGET_TITLE,
    greeting: branding.widgetGreeting || DEFAULT_WIDGET_GREETING,
    accentColor: branding.widgetAccentColor,
    accentTextColor: textColorOn(branding.widgetAccentColor),
    suggestions: suggestions.filter((suggestion) => suggestion !== null),
    voice: offers.voice,
  };
}
