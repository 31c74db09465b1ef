import Link from "next/link";

export default function Home() {
  return (
    <main className="container">
      <h1>Parley</h1>
      <p>
        Conversational agents for businesses: an HTTP API for integrators, a public help centre for visitors, and a control panel for
        admins.
      </p>
      <ul>
        <li>
          <Link href="/help/demo">Demo help centre</Link>
        </li>
        <li>
          <Link href="/panel">Control panel</Link>
        </li>
      </ul>
    </main>
  );
}
