// jest's asymmetric matchers, handed on as `unknown`: @types/jest declares them `any`, and an
// `any` placed in an expected object is an unsafe assignment to the linter; an `unknown` one is
// not. toEqual and toMatchObject compare them exactly as jest's own.

/** expect.any: a value made by the constructor (a string for String, a number for Number...). */
export const anyOf = (type: unknown): unknown => expect.any(type);

/** expect.stringMatching: a string matching the pattern. */
export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);

/** expect.stringContaining: a string containing the text. */
export const stringContaining = (text: string): unknown => expect.stringContaining(text);

/** expect.objectContaining: an object with at least these properties (compared recursively). */
export const objectContaining = (object: object): unknown => expect.objectContaining(object);

/** expect.arrayContaining: an array holding at least these elements, in any order. */
export const arrayContaining = (elements: readonly unknown[]): unknown =>
  expect.arrayContaining(elements);
