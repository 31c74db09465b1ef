// The help centre's 404 page when there is no help centre (unknown or inactive agent): status 404
// and nothing that tells those apart.
import type { Metadata } from "next";
import { NotFoundContent } from "~/help/NotFoundContent.tsx";

export const metadata: Metadata = { title: { absolute: "Page not found – Help centre" }, robots: { index: false } };

export default function HelpNotFound() {
  return (
    <div className="help">
      <a className="help-skip" href="#main">
        Skip to main content
      </a>
      <main id="main" className="help-wrap help-main help-not-found" tabIndex={-1}>
        <NotFoundContent homeHref="/" homeLabel="Go to the home page" />
      </main>
    </div>
  );
}
