import Link from "next/link";

/** Where the page sits in the help centre; the last crumb is the current page (not a link). */
export function Breadcrumbs(props: { items: Array<{ label: string; href?: string }> }) {
  return (
    <nav aria-label="Breadcrumb" className="help-breadcrumbs">
      <ol>
        {props.items.map((item, index) => {
          const current = index === props.items.length - 1;
          return (
            <li key={item.href ?? item.label}>
              {item.href && !current ? (
                <Link href={item.href}>{item.label}</Link>
              ) : (
                <span aria-current={current ? "page" : undefined}>{item.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
