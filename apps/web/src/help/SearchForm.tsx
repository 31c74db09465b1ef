// A plain GET form to the search page: works without JavaScript, and the URL can be shared.
// <search> is the search landmark.

import { helpPaths } from "@parley/core/browser";
import { HELP_QUERY_MAX_CHARS } from "@parley/core/knowledge/limits";

export function SearchForm(props: { agentId: string; id: string; query?: string; compact?: boolean }) {
  return (
    <search className={props.compact ? "help-search help-search-compact" : "help-search"}>
      <form action={helpPaths.search(props.agentId)} method="get">
        <label htmlFor={props.id} className={props.compact ? "help-visually-hidden" : "help-search-label"}>
          Search the help centre
        </label>
        <div className="help-search-row">
          <input
            id={props.id}
            type="search"
            name="q"
            defaultValue={props.query}
            maxLength={HELP_QUERY_MAX_CHARS}
            placeholder="Search articles"
            autoComplete="off"
          />
          <button type="submit">Search</button>
        </div>
      </form>
    </search>
  );
}
