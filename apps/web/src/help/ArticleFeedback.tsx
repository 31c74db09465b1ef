"use client";

// "Was this helpful?" under a help article: a form of two buttons (it works without JavaScript too).
import { useActionState } from "react";
import { articleFeedbackAction, type FeedbackState } from "./feedback-action.ts";

export function ArticleFeedback({ agentId, articleId }: { agentId: string; articleId: string }) {
  const [state, action, pending] = useActionState<FeedbackState, FormData>(articleFeedbackAction, { status: "idle" });
  return (
    <form action={action} className="help-feedback" aria-labelledby="feedback-title">
      <input type="hidden" name="agentId" value={agentId} />
      <input type="hidden" name="articleId" value={articleId} />
      <p id="feedback-title" className="help-feedback-title">
        Was this article helpful?
      </p>
      {state.status === "thanks" ? (
        <p role="status">{state.helpful ? "Thanks for letting us know." : "Thanks — we will use your answer to improve this article."}</p>
      ) : (
        <div className="help-feedback-row">
          <button type="submit" name="helpful" value="yes" disabled={pending}>
            Yes
          </button>
          <button type="submit" name="helpful" value="no" disabled={pending}>
            No
          </button>
        </div>
      )}
      {state.status === "error" ? (
        <p className="help-error" role="alert">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
