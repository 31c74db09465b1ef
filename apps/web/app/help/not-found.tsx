// The help centre's 404 page: unknown, hidden (unpublished, archived, unlinked) and inactive all
// end here, with status 404 and nothing that tells them apart.
import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: { absolute: "Page not found – Help centre" }, robots: { index: false } };

export default function HelpNotFound() {
  return (
    <div className="help">
      <a className="help-skip" href="#main">
        Skip to main content
      </a>
      <main id="main" className="help-wrap help-main help-not-found" tabIndex={-1}>
        <h1>Page not found</h1>
        <p>This help page does not exist or is no longer available. It may have been moved or unpublished.</p>
        <p>
          <Link href="/">Go to the home page</Link>
        </p>
      </main>
    </div>
  );
}
