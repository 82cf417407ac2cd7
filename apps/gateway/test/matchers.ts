// @types/jest declares expect's asymmetric matchers (expect.any, expect.stringMatching,
// expect.objectContaining) as returning `any`. These return the same matchers as `unknown`: a value
// only toEqual and toMatchObject read, so an expected object can use them without an `any` in it.
export const anyOf = (type: unknown): unknown => expect.any(type);
export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);
export const objectContaining = (object: object): unknown => expect.objectContaining(object);
