// What every help 404 says, whichever the reason (unknown, unpublished, archived, unlinked): one
// text, so the page tells nothing apart.
import Link from "next/link";

export function NotFoundContent(props: { homeHref: string; homeLabel: string }) {
  return (
    <>
      <h1>Page not found</h1>
      <p>This help page does not exist or is no longer available. It may have been moved or unpublished.</p>
      <p>
        <Link href={props.homeHref}>{props.homeLabel}</Link>
      </p>
    </>
  );
}
