// @types/jest types expect's asymmetric matchers as `any`, which lint refuses wherever one is
// placed in an expected object. These are the same matchers, handed on as `unknown` (the values
// toEqual and toMatchObject compare).

/** expect.stringMatching: a string matching the pattern. */
export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);

/** expect.arrayContaining: an array holding at least these elements, in any order. */
export const arrayContaining = (elements: readonly unknown[]): unknown =>
  expect.arrayContaining(elements);
