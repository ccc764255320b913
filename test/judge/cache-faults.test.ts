// Faults of the verdict cache on the watched host of test/support/faults.ts: bad files and racing writers.

import { afterAll, describe, expect, test } from "bun:test"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileDeps } from "../../src/host/v1.ts"
import { type CacheRecord, parseCacheLines } from "../../src/judge/cache.ts"
import {
  bridgeRule,
  expectHealthy,
  expectNoRejections,
  THREE,
  twoReplies,
  type Watched,
  watchedHost,
} from "../support/faults.ts"
import { FACTS, tempDirs, waitForLines } from "../support/fixtures.ts"
import { judgeEnv, startJudge, withJudge } from "../support/judge.ts"

const judge = startJudge(({ claim }) => bridgeRule(claim))
const temps = tempDirs("ragfaith-faults-")
const tempDir = temps.make
afterAll(() => {
  judge.stop()
  temps.cleanup()
})

/** The plugin's own file-system effects, as `server()` wires them. */
const realFs = fileDeps

// ── 3. cache faults ──────────────────────────────────────────────────────────────────────────────────────

describe("cache faults", () => {
  test.each([
    [
      "a path below a regular file",
      (dir: string) => {
        writeFileSync(join(dir, "file"), "x")
        return join(dir, "file", "cache")
      },
    ],
    [
      "a directory where the cache file should be",
      (dir: string) => {
        mkdirSync(join(dir, "opencode-cache-judge-main.jsonl"))
        return dir
      },
    ],
  ])("RFE_CACHE_DIR unusable (%s): memory only, one warning, one toast", async (_name, prepare) => {
    const cacheDir = prepare(tempDir())
    const host = watchedHost({ env: judgeEnv(judge.url, { RFE_CACHE_DIR: cacheDir }), deps: realFs })
    await twoReplies(host)
    await stillJudgesFromMemory(host)
    const warnings = host.logs.filter((line) => line.message.includes("RFE_CACHE_DIR"))
    expect(warnings.map((line) => line.level)).toEqual(["warn"])
    expect(warnings[0]?.message).toMatch(
      /^ragfaith: cannot use RFE_CACHE_DIR \(.+\); verdicts are cached in memory only$/,
    )
    expect(host.toasts.filter((toast) => toast.message.includes("RFE_CACHE_DIR"))).toHaveLength(1)
    expect(host.toasts).toHaveLength(1)
    expectHealthy(host)
  })

  /** The second reply of twoReplies was answered from memory; one more session still hits it. */
  async function stillJudgesFromMemory(host: Watched) {
    expect(host.plugin.counters).toMatchObject({ requests: 3, cacheHits: 3 })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
    await host.settle()
    expect(host.plugin.counters).toMatchObject({ requests: 3, cacheHits: 6 })
  }

  test("truncated, corrupt and binary lines are skipped; the valid ones load; the next append starts clean", async () => {
    const dir = tempDir()
    const file = join(dir, "opencode-cache-judge-main.jsonl")
    const env = judgeEnv(judge.url, { RFE_CACHE_DIR: dir })
    const a = watchedHost({ env, deps: realFs })
    await a.readTurn(await a.createSession(), "Tell me about Freedonia", FACTS, THREE)
    await a.settle()
    const [first, second, third] = await waitForLines(file, 3)
    if (!first || !second || !third) throw new Error("expected three cache lines")

    // Crashes and a full disk left their marks: the second verdict is cut, the file ends mid-line.
    writeFileSync(
      file,
      [
        first,
        second.slice(0, 30),
        "\u0000\u0001\ufffd binary junk \u00ff",
        '{"k":"not-a-verdict","v":"maybe","t":1}',
        "[1,2,3]",
        third,
        '{"k":"cut-at-the-end","v":"faith',
      ].join("\n"),
    )
    const b = watchedHost({ env, deps: realFs })
    await b.readTurn(await b.createSession(), "Tell me about Freedonia", FACTS, THREE)
    await b.settle()
    expect(b.plugin.counters).toMatchObject({ requests: 1, cacheHits: 2 })
    const after = await waitForLines(file, 8)
    const key = (line: string | undefined) => (JSON.parse(line ?? "") as CacheRecord).k
    // The verdict lost to the cut was judged again and appended on a line of its own.
    expect(key(after.at(-1))).toBe(key(second))
    expect(parseCacheLines(after.join("\n")).map((record) => record.k)).toEqual([first, third, second].map(key))
    expect(b.logs.filter((line) => line.level === "warn")).toEqual([])
    expectHealthy(a)
    expectHealthy(b)
  })

  // Two processes appending at once: see test/judge/cache.test.ts, "two processes appending at once".
  test("two plugin instances in one process append at once: no line is lost or interleaved", async () => {
    const dir = tempDir()
    const file = join(dir, "opencode-cache-judge-main.jsonl")
    await withJudge(
      async () => {
        await Bun.sleep(Math.floor(Math.random() * 4))
        return { verdict: "faithful", source: "S1", reason: "r".repeat(120) }
      },
      async (slowish) => {
        const env = judgeEnv(slowish.url, { RFE_CACHE_DIR: dir })
        const claims = (tag: string) =>
          Array.from({ length: 40 }, (_, i) => `Instance ${tag} says bridge number ${i} spans the river.`).join(" ")
        const hosts = [watchedHost({ env, deps: realFs }), watchedHost({ env, deps: realFs })]
        await Promise.all(
          hosts.map(async (host, i) => {
            const session = await host.createSession()
            await host.readTurn(session, "Tell me about Freedonia", FACTS, claims(i === 0 ? "A" : "B"))
            await host.settle()
          }),
        )
        const written = await waitForLines(file, 80)
        expect(written).toHaveLength(80)
        expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true)
        const records = written.map((line) => JSON.parse(line) as CacheRecord)
        expect(records.every((record) => record.v === "faithful" && record.r === "r".repeat(120))).toBe(true)
        expect(new Set(records.map((record) => record.k)).size).toBe(80)
        for (const host of hosts) {
          expect(host.plugin.counters.requests).toBe(40)
          expectHealthy(host)
        }
      },
    )
  })
})

expectNoRejections()
