// @types/jest types expect's asymmetric matchers as `any`, which lint refuses wherever one is
// placed in an expected object. These are the same matchers, handed on as `unknown` (the values
// toEqual and toMatchObject compare).

/** expect.stringMatching: a string matching the pattern. */
export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);

/** expect.stringContaining: a string containing the text. */
export const stringContaining = (text: string): unknown => expect.stringContaining(text);

/** expect.objectContaining: an object with at least these properties (compared recursively). */
export const objectContaining = (object: object): unknown => expect.objectContaining(object);
