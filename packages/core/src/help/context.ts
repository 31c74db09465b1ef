// What the help centre's reads need besides the platform: where a read of an article counts as a
// view (the app's in-memory counter, views.ts). Absent: views are not counted.
import type { PlatformContext } from "../platform/context.ts";
import type { ArticleViewCounter } from "./views.ts";

export interface HelpContext extends PlatformContext {
  articleViews?: ArticleViewCounter;
}
