// Section 12 of `bun bench/run.ts`: how the splitter's cost grows from 0.25 to 4 MB.
import { breathe, fmtBytes, fmtMs, table } from "../lib.ts"
import { SPLITTER_EXPONENT_TARGET, SPLITTER_INPUTS, splitterGrowth } from "../splitter-scaling.ts"
import type { Report } from "./common.ts"

/** How `splitClaims`'s cost grows with its input, per adversarial input: least CPU time over rounds, one exponent. */
export async function benchSplitterGrowth({ print, targets, findings }: Report) {
  print(
    "## 12. Splitter growth from 0.25 to 4 MB (least CPU time of 5 rounds, sizes in turn; exponent fitted between the ends)",
  )
  print()
  const rows: string[][] = []
  let worst = 0
  for (const [label, unit] of SPLITTER_INPUTS) {
    const { points, exponent } = splitterGrowth(unit)
    worst = Math.max(worst, exponent)
    const over = exponent > SPLITTER_EXPONENT_TARGET
    rows.push([
      label,
      points.map((p) => `${fmtBytes(p.size)}: ${fmtMs(p.ms)}`).join(", "),
      exponent.toFixed(2),
      over ? "OVER" : "ok",
    ])
    if (over) findings.push(`splitClaims on ${label}: growth exponent ${exponent.toFixed(2)} from 0.25 to 4 MB`)
    await breathe()
  }
  print(table(["input", "time by size", "exponent", ""], rows))
  print()
  targets.push([
    "12. splitter growth, worst input, 0.25–4 MB",
    `exponent ≤ ${SPLITTER_EXPONENT_TARGET}`,
    worst.toFixed(2),
    worst <= SPLITTER_EXPONENT_TARGET ? "met" : "MISSED",
  ])
}
