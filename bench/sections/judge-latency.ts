// Section 1 of `bun bench/run.ts`: the judge's wall time for one reply's claims, the judge 300 ms away.
import { splitClaims } from "../../src/claims/split.ts"
import { DEFAULTS } from "../../src/config/config.ts"
import { createHost } from "../../test/support/host.ts"
import { judgeEnv } from "../../test/support/judge.ts"
import { breathe, commonPrefixLength, fmtBytes, fmtMs, median, startLatencyJudge, table, utf8Bytes } from "../lib.ts"

import { claimPartAt, claimReply, idleToSettled, MODULE_FILE, type Report, turnUntilIdle } from "./common.ts"

export async function benchJudgeLatency({ print, targets, findings }: Report) {
  const latency = 300
  const claims = 50
  print(`## 1. Judge wall time: ${claims} claims, loopback judge with ${latency} ms latency`)
  print()
  const reply = claimReply(claims)
  const split = splitClaims(reply, DEFAULTS.maxClaims)
  if (split.claims.length !== claims) throw new Error(`the reply splits into ${split.claims.length} claims`)
  const judge = startLatencyJudge(latency)
  const rows: string[][] = []
  let prefixReport = ""
  try {
    for (const concurrency of [1, DEFAULTS.judgeConcurrency]) {
      const isDefault = concurrency === DEFAULTS.judgeConcurrency
      const env = judgeEnv(judge.url, isDefault ? {} : { RFE_JUDGE_CONCURRENCY: String(concurrency) })
      const walls: number[] = []
      for (let rep = 0; rep < (concurrency === 1 ? 1 : 3); rep++) {
        const host = createHost({ env })
        const session = await turnUntilIdle(host, MODULE_FILE, reply)
        const before = judge.requests.length
        walls.push(await idleToSettled(host, session))
        const requests = judge.requests.slice(before)
        if (requests.length !== claims || host.plugin.counters.claimsJudged !== claims) {
          throw new Error(`expected ${claims} judge requests, saw ${requests.length}`)
        }
        if (!prefixReport) {
          const bodies = requests.map((request) => request.raw)
          const prefix = commonPrefixLength(bodies)
          const claimAt = bodies.map(claimPartAt)
          const sameUpToClaim = claimAt.every((at) => at === claimAt[0] && prefix >= at)
          const meanLength = bodies.reduce((sum, body) => sum + utf8Bytes(body), 0) / bodies.length
          const prefixBytes = utf8Bytes((bodies[0] ?? "").slice(0, prefix))
          prefixReport =
            `All ${bodies.length} request bodies share one byte-identical prefix up to the claim's own part ` +
            "(the sentences before it, then the claim): " +
            `${sameUpToClaim ? "yes" : "NO"} (common prefix ${fmtBytes(prefixBytes)} / mean body ` +
            `${fmtBytes(meanLength)} = ${((100 * prefixBytes) / meanLength).toFixed(1)}%).`
          if (!sameUpToClaim) findings.push("judge request bodies differ before the claim")
        }
        await breathe()
      }
      const ideal = Math.ceil(claims / concurrency) * latency
      const target = 1.2 * ideal
      const wall = median(walls)
      rows.push([
        `${concurrency}${isDefault ? " (default)" : ""}`,
        String(walls.length),
        fmtMs(wall),
        fmtMs(Math.max(...walls)),
        fmtMs(ideal),
        `${(wall / ideal).toFixed(3)}×`,
        `≤ ${fmtMs(target)}`,
        wall <= target ? "met" : "MISSED",
      ])
      targets.push([
        `1. judge wall, c=${concurrency}`,
        `≤ 1.2 × ceil(${claims}/${concurrency}) × ${latency} ms = ${fmtMs(target)}`,
        fmtMs(wall),
        wall <= target ? "met" : "MISSED",
      ])
    }
  } finally {
    judge.stop()
  }
  print(
    table(
      ["concurrency", "runs", "idle→settled (median)", "max", "ideal ceil(n/c)×lat", "wall/ideal", "target", ""],
      rows,
    ),
  )
  print()
  print(prefixReport)
  print()
}
