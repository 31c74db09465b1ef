/** The rule as `details` word it: `<field>: <rule>`. */
export declare const UNSTORABLE_TEXT_RULE: "must be valid Unicode text without NUL characters";
/** True for text PostgreSQL cannot store: U+0000, and unpaired UTF-16 surrogates. */
export declare function isUnstorableText(text: string): boolean;
