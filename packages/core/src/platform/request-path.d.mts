/** The rule as `details` word it: `path: <rule>`. */
export declare const PATH_SEGMENTS_RULE: 'must not have "." or ".." segments, backslashes or doubled slashes, in any spelling (percent-encoded too)';
/** The path of a request target, origin-form or absolute-form, without its query or fragment. */
export declare function targetPath(target: string): string;
/** True when a percent-decoded path holds a dot segment, a backslash or a doubled slash. */
export declare function isAmbiguousPath(decodedPath: string): boolean;
/** A request target's path as routing reads it: dot segments resolved, backslashes and doubled slashes as one slash. */
export declare function routedPath(target: string): string;
