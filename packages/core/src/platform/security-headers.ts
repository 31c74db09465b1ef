// The security headers of Parley's responses, in one place (plain values, so the app's proxy can
// load them too). Every response carries SECURITY_HEADERS (response-headers.mjs: the server entry
// sets them on each one); every page carries the Content-Security-Policy that the app's proxy
// builds with a fresh nonce per request. Next.js reads the nonce from the policy it finds on the
// request and puts it on its own scripts.

export { SECURITY_HEADERS } from "./response-headers.mjs";

/** Request header that hands the page's nonce to server components that add their own script tags. */
export const NONCE_HEADER = "x-nonce";

export interface PolicyOptions {
  /** Random, base64, new for every response. */
  nonce: string;
  /** The app's public URL: its WebSocket (/ws) is the one the widget on the help pages talks to. */
  appUrl: string;
  /** `next dev` evaluates code for its error overlay and fast refresh. */
  development: boolean;
}

/**
 * The pages' policy: scripts only from this origin or with this response's nonce (no inline
 * script, no eval, no javascript: URL); styles from this origin or with the nonce, style
 * attributes allowed (React and the charts set them; they cannot run script); no plugins, no
 * <base> or form posts elsewhere, never framed. Images may come from any https site (articles
 * link them; data: for the icons of Swagger UI's stylesheet).
 */
export function contentSecurityPolicy({ nonce, appUrl, development }: PolicyOptions): string {
  const app = new URL(appUrl);
  const webSocket = `${app.protocol === "https:" ? "wss:" : "ws:"}//${app.host}`;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    `connect-src 'self' ${webSocket}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
