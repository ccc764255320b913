/**
 * How the splitter grows on its worst inputs, from 0.25 MB to 4 MB: each input is split at 0.25, 1 and 4 MB
 * after a warm-up at each, in turn over five rounds, the least of each size kept (CPU time of the process,
 * which a busy shared machine disturbs less than wall time), and the growth exponent is fitted between 0.25
 * and 4 MB (1 = linear, 2 = quadratic).
 *
 *   bun bench/splitter-scaling.ts          (also section 12 of bench/run.ts)
 */

import { splitClaims } from "../src/claims/split.ts"

const KB = 1024

/** The inputs: one paragraph of a repeated unit, the shapes that once grew faster than linearly. */
export const SPLITTER_INPUTS: ReadonlyArray<readonly [string, string]> = [
  ['"1. " repeated, one paragraph', "1. "],
  ['"Dr. " repeated', "Dr. "],
  ['"E. " repeated (a chain of initials)', "E. "],
  ['"x.\\n" lines (a boundary per line)', "x.\n"],
  ['"ran. the " repeated (lowercase starts)', "ran. the "],
  ['"\\"A. B. " repeated (open quotations)', '"A. B. '],
  ['". `" repeated (code after a full stop)', ". `"],
  ['"`s3.PutObject` " repeated (code spans)', "`s3.PutObject` "],
  ['"- `a.ts`\\n" lines (a list of files)', "- `a.ts`\n"],
  ['"The cat sat. " repeated (plain sentences)', "The cat sat. "],
  ['"Why? – It ran. " repeated (a dash after a stop)', "Why? – It ran. "],
  ['"a? – b " repeated (a dash before no capital)', "a? – b "],
  ['"Done. (optional) Run it. " repeated (a label in brackets)', "Done. (optional) Run it. "],
  ['"ran. (a b c " repeated (a bracket never closed)', "ran. (a b c "],
]

/** The growth exponent this splitter must stay under. */
export const SPLITTER_EXPONENT_TARGET = 1.15

const cpuMs = (work: () => unknown) => {
  const start = process.cpuUsage()
  work()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** How many rounds each input is timed: every round times each size in turn, and the least is kept. */
const ROUNDS = 5

const SIZES = [256 * KB, 1024 * KB, 4096 * KB] as const

/**
 * Least CPU times over the rounds at 0.25, 1 and 4 MB and the exponent between the ends, for one repeated
 * unit. The sizes are timed in turn within each round, so a burst of load from other work on a shared
 * machine falls on every size alike rather than on the runs of one; a warm-up at each size comes first.
 */
export function splitterGrowth(unit: string) {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" })
  const texts = SIZES.map((size) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size))
  for (const text of texts) splitClaims(text, 50, segmenter)
  const least = SIZES.map(() => Number.POSITIVE_INFINITY)
  for (let round = 0; round < ROUNDS; round++)
    texts.forEach((text, i) => {
      Bun.gc(true)
      least[i] = Math.min(
        least[i] as number,
        cpuMs(() => splitClaims(text, 50, segmenter)),
      )
    })
  const points = SIZES.map((size, i) => ({ size, ms: least[i] as number }))
  const [first, , last] = points as [{ size: number; ms: number }, unknown, { size: number; ms: number }]
  return { points, exponent: Math.log(last.ms / first.ms) / Math.log(last.size / first.size) }
}

if (import.meta.main) {
  for (const [label, unit] of SPLITTER_INPUTS) {
    const { points, exponent } = splitterGrowth(unit)
    const times = points.map((p) => `${p.size / KB} KB: ${p.ms.toFixed(0)} ms`).join(", ")
    const verdict = exponent <= SPLITTER_EXPONENT_TARGET ? "ok" : "OVER"
    process.stdout.write(`| ${label} | ${times} | ${exponent.toFixed(2)} | ${verdict} |\n`)
  }
}
