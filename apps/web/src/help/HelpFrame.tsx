// The frame of every help page, the 404 page included: skip link, header in the help centre's own
// look (name, logo, accent colour; search), the main landmark, footer with the custom link. Plain
// markup without hooks or data loading, so the server pages and the client 404 page share it.

import { helpPaths } from "@parley/core/browser";
import type { HelpBrand } from "@parley/core/help";
import Link from "next/link";
import type { CSSProperties, ReactNode } from "react";
import { HelpLogo } from "./HelpLogo.tsx";
import { SearchForm } from "./SearchForm.tsx";

export function HelpFrame(props: {
  brand: HelpBrand;
  headerSearch?: boolean;
  query?: string;
  mainClassName?: string;
  children: ReactNode;
}) {
  const { brand } = props;
  const style = { "--brand": brand.accentColor, "--brand-fg": brand.accentTextColor } as CSSProperties;
  return (
    <div className="help" style={style}>
      <a className="help-skip" href="#main">
        Skip to main content
      </a>
      <header className="help-header">
        <div className="help-wrap help-header-row">
          <Link className="help-brand" href={helpPaths.home(brand.agentId)}>
            {brand.logoUrl ? <HelpLogo src={brand.logoUrl} /> : null}
            <span className="help-brand-name">{brand.name}</span>
          </Link>
          {props.headerSearch ? <SearchForm agentId={brand.agentId} id="header-search" compact query={props.query} /> : null}
        </div>
      </header>
      <main id="main" className={`help-wrap help-main ${props.mainClassName ?? ""}`} tabIndex={-1}>
        {props.children}
      </main>
      <footer className="help-footer">
        <div className="help-wrap">
          <p>
            {brand.footerLink ? (
              <>
                <a href={brand.footerLink.url}>{brand.footerLink.label}</a> ·{" "}
              </>
            ) : null}
            {brand.name} · Powered by <a href="/">Parley</a>
          </p>
        </div>
      </footer>
    </div>
  );
}
