"use client";

interface VisitorFields {
  visitorName?: string | null;
  visitorEmail?: string | null;
  visitorPhone?: string | null;
  /** Widget conversations: the page they started on. */
  firstPageUrl?: string | null;
  clientVariables?: unknown;
  /** Widget conversations: the page's variables. */
  pageVariables?: unknown;
  /** Set once the visitor's data was erased. */
  erasedAt?: string | Date | null;
}

export function VisitorCard({ conversation }: { conversation: VisitorFields }) {
  const fields: Array<[string, string]> = [];
  if (conversation.visitorName) fields.push(["Name", conversation.visitorName]);
  if (conversation.visitorEmail) fields.push(["Email", conversation.visitorEmail]);
  if (conversation.visitorPhone) fields.push(["Phone", conversation.visitorPhone]);
  if (conversation.firstPageUrl) fields.push(["First page", conversation.firstPageUrl]);

  return (
    <section aria-labelledby="visitor-heading" className="card">
      <h2 id="visitor-heading">Visitor</h2>
      {fields.length === 0 ? (
        <p className="muted">{conversation.erasedAt ? "Erased." : "No visitor details were sent."}</p>
      ) : (
        <dl className="details">
          {fields.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <h3>Client variables</h3>
      <Variables values={conversation.clientVariables} />
      <h3>Page variables</h3>
      <Variables values={conversation.pageVariables} />
    </section>
  );
}

/** A string map as a definition list ("None." when empty). */
function Variables({ values }: { values: unknown }) {
  const entries = typeof values === "object" && values !== null ? Object.entries(values as Record<string, unknown>) : [];
  if (entries.length === 0) return <p className="muted">None.</p>;
  return (
    <dl className="details">
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt>
            <code>{name}</code>
          </dt>
          <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
