// @types/jest types expect's asymmetric matchers as `any`, which lint refuses wherever one is
// placed in an expected object. These are the same matchers, handed on as `unknown` (the values
// toEqual and toMatchObject compare).

/** expect.stringContaining: a string containing the text. */
export const stringContaining = (text: string): unknown => expect.stringContaining(text);
