/**
 * ragfaith benchmarks: `bun bench/run.ts` (about a minute and a half on 2 cores).
 *
 * Everything goes through the real plugin code: the hooks are driven by the test suite's fake host
 * (test/support/host.ts), which emits events in opencode 1.18.33's order and shapes, and the judge is a real
 * Bun.serve endpoint on 127.0.0.1. Pure functions are imported from their modules. Inputs are generated
 * from a seeded PRNG, so every run measures the same bytes.
 *
 *   bun bench/run.ts              all sections
 *   bun bench/run.ts --only=2,5   some sections (1 judge latency, 2 capture, 3 streaming, 4 doc-pull,
 *                                 5 throughput, 6 cache, 7 cost, 8 adversarial scaling, 9 noisy judge,
 *                                 10 judge route in the real opencode, 11 batched judging, 12 splitter
 *                                 growth from 0.25 to 4 MB)
 */

import { readFile } from "node:fs/promises"
import { availableParallelism } from "node:os"
import { benchBatch } from "./batch.ts"
import { breathe, fmtMs, table } from "./lib.ts"
import { benchNoisyJudge } from "./noisy.ts"
import { benchRoute } from "./route.ts"
import { benchCache } from "./sections/cache.ts"
import { benchCapture } from "./sections/capture.ts"
import type { Report } from "./sections/common.ts"
import { benchCost } from "./sections/cost.ts"
import { benchDocPull } from "./sections/doc-pull.ts"
import { benchJudgeLatency } from "./sections/judge-latency.ts"
import { benchScaling } from "./sections/scaling.ts"
import { benchSplitterGrowth } from "./sections/splitter.ts"
import { benchStreaming } from "./sections/streaming.ts"
import { benchThroughput } from "./sections/throughput.ts"

const only = new Set(
  (process.argv.find((arg) => arg.startsWith("--only="))?.slice(7) ?? "1,2,3,4,5,6,7,8,9,10,11,12")
    .split(",")
    .map((part) => Number(part.trim())),
)
const targets: Report["targets"] = []
const findings: string[] = []
const print = (text = "") => process.stdout.write(`${text}\n`)
const report: Report = { print, targets, findings }

async function machine() {
  const cpuinfo = await readFile("/proc/cpuinfo", "utf8").catch(() => "")
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? "unknown CPU"
  return `${availableParallelism()} cores (${cpu}), Bun ${Bun.version}, ${process.platform}-${process.arch}`
}

const started = performance.now()
print(`# ragfaith benchmarks — ${new Date().toISOString().slice(0, 10)}`)
print()
print(`Machine: ${await machine()}`)
print()
const sections: Array<[number, () => Promise<void>]> = [
  [1, () => benchJudgeLatency(report)],
  [2, () => benchCapture(report)],
  [3, () => benchStreaming(report)],
  [4, () => benchDocPull(report)],
  [5, () => benchThroughput(report)],
  [6, () => benchCache(report)],
  [7, () => benchCost(report)],
  [8, () => benchScaling(report)],
  [9, async () => void targets.push(...(await benchNoisyJudge(print)))],
  [10, async () => void (await benchRoute(print))],
  [11, async () => void targets.push(...(await benchBatch(print)))],
  [12, () => benchSplitterGrowth(report)],
]
for (const [number, run] of sections) {
  if (!only.has(number)) continue
  await run()
  await breathe()
}
if (targets.length) {
  print("## Targets")
  print()
  print(table(["target", "goal", "measured", ""], targets))
  print()
}
print("## Findings")
print()
print(findings.length ? findings.map((finding) => `- ${finding}`).join("\n") : "- none")
print()
print(`Total time: ${fmtMs(performance.now() - started)}`)
