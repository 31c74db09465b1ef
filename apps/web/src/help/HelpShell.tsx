// The frame of every help page: skip link, header with the help centre's name (and search),
// the main landmark, footer. Server component; works without JavaScript.

import { helpPaths } from "@parley/core/help";
import Link from "next/link";
import type { ReactNode } from "react";
import { HelpWidget } from "./HelpWidget.tsx";
import { SearchForm } from "./SearchForm.tsx";

export function HelpShell(props: { agentId: string; agentName: string; headerSearch?: boolean; query?: string; children: ReactNode }) {
  return (
    <div className="help">
      <a className="help-skip" href="#main">
        Skip to main content
      </a>
      <header className="help-header">
        <div className="help-wrap help-header-row">
          <Link className="help-brand" href={helpPaths.home(props.agentId)}>
            <span className="help-brand-name">{props.agentName}</span>
            <span className="help-brand-label">Help centre</span>
          </Link>
          {props.headerSearch ? <SearchForm agentId={props.agentId} id="header-search" compact query={props.query} /> : null}
        </div>
      </header>
      <main id="main" className="help-wrap help-main" tabIndex={-1}>
        {props.children}
      </main>
      <footer className="help-footer">
        <div className="help-wrap">
          <p>
            {props.agentName} help centre · Powered by <a href="/">Parley</a>
          </p>
        </div>
      </footer>
      <HelpWidget agentId={props.agentId} />
    </div>
  );
}
