/** The security headers every response carries (set by the server entry, apps/web/server.mjs). */
export declare const SECURITY_HEADERS: Readonly<Record<string, string>>;
