"use client";

interface VisitorFields {
  visitorName?: string | null;
  visitorEmail?: string | null;
  visitorPhone?: string | null;
  clientVariables?: unknown;
}

export function VisitorCard({ conversation }: { conversation: VisitorFields }) {
  const fields: Array<[string, string]> = [];
  if (conversation.visitorName) fields.push(["Name", conversation.visitorName]);
  if (conversation.visitorEmail) fields.push(["Email", conversation.visitorEmail]);
  if (conversation.visitorPhone) fields.push(["Phone", conversation.visitorPhone]);
  const variables =
    typeof conversation.clientVariables === "object" && conversation.clientVariables !== null
      ? Object.entries(conversation.clientVariables as Record<string, unknown>)
      : [];

  return (
    <section aria-labelledby="visitor-heading" className="card">
      <h2 id="visitor-heading">Visitor</h2>
      {fields.length === 0 ? (
        <p className="muted">No visitor details were sent.</p>
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
      {variables.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <dl className="details">
          {variables.map(([name, value]) => (
            <div key={name}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
