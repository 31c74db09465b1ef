// The 404 page of every path outside the help centre (which has its own). Next's built-in one
// carries an inline style element, which the pages' Content-Security-Policy does not allow.
import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

export default function NotFound() {
  return (
    <main className="container">
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </main>
  );
}
