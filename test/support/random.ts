/**
 * Seeded randomness for generated inputs, shared by the corpora and the benchmarks: every run draws the same
 * bytes.
 */

/** mulberry32: a tiny seeded PRNG, so every run generates the same inputs. */
export function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
export function randomToken(random: () => number, length: number, alphabet = ALNUM): string {
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)]
  return out
}
