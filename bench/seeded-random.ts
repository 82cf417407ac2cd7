/** mulberry32: a fixed seed gives the same catalog on every run, so runs compare like for like. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks items with weight 1 / (rank + 1)^exponent: a few frequent, a long tail of rare ones. */
export function zipfPicker<T>(
  items: readonly T[],
  exponent: number,
  random: () => number,
): () => T {
  const weights = items.map((_, rank) => 1 / (rank + 1) ** exponent);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const cumulative: number[] = [];
  let running = 0;
  for (const w of weights) cumulative.push((running += w / total));
  return () => {
    const r = random();
    const index = cumulative.findIndex((edge) => r < edge);
    return items[index === -1 ? items.length - 1 : index] as T;
  };
}

export const uniformPicker =
  <T>(items: readonly T[], random: () => number) =>
  () =>
    items[Math.floor(random() * items.length)] as T;
