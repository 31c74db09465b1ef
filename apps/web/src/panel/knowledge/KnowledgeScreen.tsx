"use client";

import Link from "next/link";
import { ArticleBrowser } from "./ArticleBrowser.tsx";
import { CreateSourceForm } from "./CreateSourceForm.tsx";
import { SourceList } from "./SourceList.tsx";

export function KnowledgeScreen() {
  return (
    <>
      <div className="page-heading">
        <h1>Knowledge base</h1>
        <div className="page-actions">
          <Link href="/panel/knowledge/gaps">Unanswered questions</Link>
        </div>
      </div>
      <section aria-labelledby="sources-heading" className="card">
        <h2 id="sources-heading">Sources</h2>
        <p className="muted small">
          A source is a collection of articles. Link it to agents to make its published articles their knowledge.
        </p>
        <CreateSourceForm />
        <SourceList />
      </section>
      <section aria-labelledby="articles-heading">
        <h2 id="articles-heading">Articles</h2>
        <ArticleBrowser />
      </section>
    </>
  );
}
