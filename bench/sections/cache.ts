// Section 6 of `bun bench/run.ts`: the verdict cache, in memory and on disk.
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileDeps } from "../../src/host/v1.ts"
import { cacheFileName, createVerdictCache, parseCacheLines } from "../../src/judge/cache.ts"
import { createHost } from "../../test/support/host.ts"
import { judgeEnv } from "../../test/support/judge.ts"
import { randomToken, rng } from "../../test/support/random.ts"
import { breathe, fmtBytes, fmtMs, median, sha256, startLatencyJudge, table, time } from "../lib.ts"

import { claimReply, idleToSettled, JUDGE_MODEL, MODULE_FILE, type Report, turnUntilIdle } from "./common.ts"

/** The plugin's own disk access, as `server()` wires it. */
const fsDeps = fileDeps

export async function benchCache({ print, targets, findings }: Report) {
  const lines = 100_000
  print(`## 6. Verdict cache: a ${lines.toLocaleString("en")}-line JSONL file`)
  print()
  const dir = await mkdtemp(join(tmpdir(), "ragfaith-bench-"))
  const judge = startLatencyJudge(0)
  const env = judgeEnv(judge.url, { RFE_CACHE_DIR: dir })
  const reply = claimReply(50)
  const file = join(dir, cacheFileName(JUDGE_MODEL))
  try {
    // A first plugin judges the reply and appends its verdicts, in the format and file it always uses.
    const first = createHost({ env, deps: fsDeps })
    await idleToSettled(first, await turnUntilIdle(first, MODULE_FILE, reply))
    let written = ""
    for (let i = 0; i < 200; i++) {
      written = (await fsDeps.readText(file)) ?? ""
      if (written.split("\n").filter(Boolean).length >= 50) break
      await Bun.sleep(10)
    }
    const real = written.split("\n").filter(Boolean)
    if (real.length !== 50) throw new Error(`the first run cached ${real.length} verdicts`)
    // Pad it to 100,000 lines with records of the same shape.
    const random = rng(9)
    const verdicts = ["faithful", "unfaithful", "unverifiable"] as const
    const padding: string[] = []
    for (let i = 0; i < lines - real.length; i++) {
      const verdict = verdicts[i % 3] ?? "faithful"
      padding.push(
        JSON.stringify({
          k: sha256(`padding ${i}`),
          v: verdict,
          ...(verdict === "faithful" ? { s: `S${1 + (i % 4)}` } : {}),
          ...(random() < 0.7 ? { r: `the source states ${randomToken(random, 24)} in its configuration table` } : {}),
          t: 1_796_000_000_000 + i,
        }),
      )
    }
    const text = `${[...padding, ...real].join("\n")}\n`
    await writeFile(file, text)
    const loads: number[] = []
    const reads: number[] = []
    const parses: number[] = []
    let size = 0
    for (let rep = 0; rep < 5; rep++) {
      const cache = createVerdictCache(dir, fsDeps, () => {})
      loads.push(await time(() => cache.load(JUDGE_MODEL)))
      size = cache.size
      let raw = ""
      reads.push(await time(async () => (raw = (await fsDeps.readText(file)) ?? "")))
      parses.push(await time(() => parseCacheLines(raw)))
      await breathe()
    }
    // A fresh plugin replays the same turn: the first judgment loads the file, and every claim is a hit.
    const replay = createHost({ env, deps: fsDeps })
    const before = judge.requests.length
    const cold = await idleToSettled(replay, await turnUntilIdle(replay, MODULE_FILE, reply))
    const coldCalls = judge.requests.length - before
    const coldHits = replay.plugin.counters.cacheHits
    const warm = await idleToSettled(replay, await turnUntilIdle(replay, MODULE_FILE, reply))
    const warmCalls = judge.requests.length - before - coldCalls
    print(
      table(
        ["measurement", "time", "notes"],
        [
          [
            "cache.load (readFile + parse + index), median of 5",
            fmtMs(median(loads)),
            `${fmtBytes(text.length)} file, ${size.toLocaleString("en")} records in memory`,
          ],
          ["  of which readFile", fmtMs(median(reads)), ""],
          ["  of which parseCacheLines", fmtMs(median(parses)), ""],
          [
            "replayed 50-claim reply, fresh plugin: idle → settled",
            fmtMs(cold),
            `includes the first load; ${coldCalls} judge calls, ${coldHits} cache hits`,
          ],
          ["the same reply again (cache warm): idle → settled", fmtMs(warm), `${warmCalls} judge calls`],
        ],
      ),
    )
    print()
    if (coldCalls !== 0 || warmCalls !== 0) findings.push(`cache replay made ${coldCalls + warmCalls} judge calls`)
    targets.push([
      "6. cache replay",
      "0 judge calls",
      String(coldCalls + warmCalls),
      coldCalls + warmCalls === 0 ? "met" : "MISSED",
    ])
  } finally {
    judge.stop()
    await rm(dir, { recursive: true, force: true })
  }
}
