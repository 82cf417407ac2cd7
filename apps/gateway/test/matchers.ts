// jest's asymmetric matchers, typed `unknown` where @types/jest declares them `any`: inside an
// expected object an `any` property is an unsafe assignment, an `unknown` one is not.
export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);
export const anyOf = (type: unknown): unknown => expect.any(type);
export const objectContaining = (object: object): unknown => expect.objectContaining(object);
