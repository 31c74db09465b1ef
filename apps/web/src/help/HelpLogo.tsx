"use client";

// The help centre's logo. One that does not load (a moved file, a host that refuses) is removed
// instead of leaving a broken image: the help centre's name beside it still names the business.
// A failure before the page's script ran is caught too (the image is checked once hydrated).
import { useEffect, useRef, useState } from "react";

export function HelpLogo({ src }: { src: string }) {
  const image = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return null;
  return (
    // biome-ignore lint/performance/noImgElement: an admin's logo on any https host or this server; next/image would proxy it
    <img ref={image} className="help-logo" src={src} alt="" height={32} onError={() => setFailed(true)} />
  );
}
