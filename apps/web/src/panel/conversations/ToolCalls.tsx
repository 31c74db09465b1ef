"use client";

interface ToolCall {
  name: string;
  args: unknown;
}

export function ToolCalls({ calls }: { calls: ToolCall[] | null | undefined }) {
  if (!calls || calls.length === 0) return null;
  return (
    <div className="tool-calls">
      <p className="small muted">Tool calls</p>
      <ul>
        {calls.map((call, index) => (
          // Calls have no id; their order in the turn is stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
          <li key={index}>
            <code className="tool-name">{call.name}</code>
            <pre className="tool-args">{JSON.stringify(call.args ?? {}, null, 2)}</pre>
          </li>
        ))}
      </ul>
    </div>
  );
}
