/**
 * How the splitter grows on its worst inputs, from 0.25 MB to 4 MB: each input is split at 0.25, 1 and 4 MB,
 * the best of several runs is taken (CPU time of the process, which a busy shared machine disturbs less than
 * wall time), and the growth exponent is fitted between 0.25 and 4 MB (1 = linear, 2 = quadratic).
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
]

/** The growth exponent this splitter must stay under. */
export const SPLITTER_EXPONENT_TARGET = 1.15

const cpuMs = (work: () => unknown) => {
  const start = process.cpuUsage()
  work()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** Best-of-runs CPU times at 0.25, 1 and 4 MB and the exponent between the ends, for one repeated unit. */
export function splitterGrowth(unit: string) {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" })
  splitClaims(unit.repeat(Math.ceil((64 * KB) / unit.length)), 50, segmenter)
  const points = [256 * KB, 1024 * KB, 4096 * KB].map((size, i) => {
    const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size)
    let best = Number.POSITIVE_INFINITY
    for (let run = 0; run < 7 - 2 * i; run++) {
      Bun.gc(true)
      best = Math.min(
        best,
        cpuMs(() => splitClaims(text, 50, segmenter)),
      )
    }
    return { size, ms: best }
  })
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
