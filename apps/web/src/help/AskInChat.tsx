"use client";

// "Ask us in the chat" under a search that found nothing: opens the page's chat widget
// (window.parley, from /widget.js). Shown once the widget has loaded: without JavaScript, or
// before the script ran, there is no chat to open.
import { useEffect, useState } from "react";

interface ParleyWidget {
  open(): void;
}

function pageWidget(): ParleyWidget | undefined {
  return (window as unknown as { parley?: ParleyWidget }).parley;
}

export function AskInChat() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (pageWidget()) {
      setLoaded(true);
      return;
    }
    // The widget's script loads async: it sets window.parley as it runs.
    const script = document.querySelector<HTMLScriptElement>('script[src$="/widget.js"]');
    const onLoad = () => setLoaded(pageWidget() !== undefined);
    script?.addEventListener("load", onLoad, { once: true });
    return () => script?.removeEventListener("load", onLoad);
  }, []);
  if (!loaded) return null;
  return (
    <p className="help-ask-chat">
      Can’t find what you need?{" "}
      <button type="button" onClick={() => pageWidget()?.open()}>
        Ask us in the chat
      </button>
    </p>
  );
}
