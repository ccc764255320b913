import { afterAll, describe, expect, test } from "bun:test"
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Deps, TokenLogLine } from "../../src/config/effects.ts"
import { fileDeps } from "../../src/host/v1.ts"
import {
  type CacheRecord,
  cacheFileName,
  cacheKey,
  createVerdictCache,
  parseCacheLines,
} from "../../src/judge/cache.ts"
import { renderContext } from "../../src/judge/prompt.ts"
import { FACTS, fileLines, tempDirs, waitForLines } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { judgeEnv, startJudge, withJudge } from "../support/judge.ts"

/** Three claims, none verbatim in FACTS, so each one is judged and cached. */
const CLAIMS = [
  "Fredville is the capital city.",
  "Fredville has exactly three bridges.",
  "The national animal is a fox.",
]
const REPLY = CLAIMS.join(" ")
const KEY = "plainkey-Zq7Xv93Lm2WpT4"

const judge = startJudge(() => ({ verdict: "faithful", source: "S1", reason: "stated in facts.txt" }))
const temps = tempDirs("ragfaith-cache-")
const tempDir = temps.make
afterAll(() => {
  judge.stop()
  temps.cleanup()
})

/** The real file system behind the plugin's deps, with every call recorded. */
function realFs() {
  const calls = { reads: [] as string[], appends: [] as string[], dirs: [] as string[] }
  const real = fileDeps
  const deps: Pick<Deps, "readText" | "appendText" | "ensureDir"> = {
    readText: (path) => {
      calls.reads.push(path)
      return real.readText(path)
    },
    appendText: (path, text) => {
      calls.appends.push(path)
      return real.appendText(path, text)
    },
    ensureDir: (path) => {
      calls.dirs.push(path)
      return real.ensureDir(path)
    },
  }
  return { calls, deps }
}

async function turn(host: ReturnType<typeof createHost>, reply = REPLY) {
  const session = await host.createSession()
  await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
  await host.settle()
  return session
}

describe("keys and file names", () => {
  const sha = (text: string) => createHash("sha256").update(text).digest("hex")

  test.each([
    ["judge-main", "<sources>\n</sources>", "A claim."],
    ["hf:zai-org/GLM-5.3-Flash", '<sources>\n<source id="S1">x</source>\n</sources>', "Fredville is the capital."],
    ["m", "", ""],
    ["m", "Kontext mit Umlauten: äöü ß", "Die Funktion gibt z. B. null zurück."],
  ])("cacheKey(%j, …) is sha256(model \\0 context \\0 claim) in hex", (model, context, claim) => {
    const key = cacheKey(model, context, claim)
    expect(key).toBe(sha(`${model}\x00${context}\x00${claim}`))
    expect(key).toMatch(/^[0-9a-f]{64}$/)
  })

  test("every part of the key matters", () => {
    const base = cacheKey("m", "ctx", "claim")
    expect(
      new Set([base, cacheKey("n", "ctx", "claim"), cacheKey("m", "ctx2", "claim"), cacheKey("m", "ctx", "claim2")]),
    ).toHaveProperty("size", 4)
    expect(cacheKey("m", "ctx", "claim")).toBe(base)
  })

  test.each([
    ["hf:zai-org/GLM-5.3-Flash", "opencode-cache-hf_zai-org_GLM-5.3-Flash.jsonl"],
    ["hf:deepseek-ai/DeepSeek-V4.1-Flash", "opencode-cache-hf_deepseek-ai_DeepSeek-V4.1-Flash.jsonl"],
    ["z-ai/glm-5.3-flash", "opencode-cache-z-ai_glm-5.3-flash.jsonl"],
    ["judge-main", "opencode-cache-judge-main.jsonl"],
    ["../../etc/passwd", "opencode-cache-.._.._etc_passwd.jsonl"],
    ["a b\\c:d", "opencode-cache-a_b_c_d.jsonl"],
    ["x".repeat(200), `opencode-cache-${"x".repeat(120)}.jsonl`],
  ])("cacheFileName(%j) → %j", (model, name) => {
    expect(cacheFileName(model)).toBe(name)
  })

  test.each([
    ["a valid line", '{"k":"a","v":"faithful","t":1}', ["a"]],
    ["source and reason", '{"k":"a","v":"unfaithful","s":"S1","r":"why","t":1}', ["a"]],
    ["a truncated line", '{"k":"a","v":"faith', []],
    ["garbage", "not json at all", []],
    ["an unknown verdict", '{"k":"a","v":"maybe","t":1}', []],
    ["no key", '{"v":"faithful","t":1}', []],
    ["a number as key", '{"k":1,"v":"faithful","t":1}', []],
    ["JSON that is not an object", "null", []],
    [
      "good lines around bad ones",
      '{"k":"a","v":"faithful","t":1}\n\n{"k":"b","v":"unfai\r\ngarbage\n{"k":"c","v":"unverifiable","t":2}\r\n',
      ["a", "c"],
    ],
  ])("parseCacheLines: %s", (_name, text, keys) => {
    expect(parseCacheLines(text).map((record) => record.k)).toEqual(keys)
  })
})

describe("memory only by default", () => {
  test("a replayed identical reply makes no judge request, and no file is touched", async () => {
    const fs = realFs()
    const host = createHost({ env: judgeEnv(judge.url), deps: fs.deps })
    const before = judge.requests.length
    const session = await turn(host)
    expect(judge.requests.length - before).toBe(3)
    expect(host.plugin.counters.cacheHits).toBe(0)

    // The same turn again in the same session: same model, question, context and claims.
    const again = await host.userMessage(session, "Tell me about Freedonia")
    await host.reply(session, again, REPLY)
    await host.settle()
    expect(judge.requests.length - before).toBe(3)
    expect(host.plugin.counters.cacheHits).toBe(3)

    // Another session of the same plugin instance with the same sources hits the cache too.
    await turn(host)
    expect(judge.requests.length - before).toBe(3)
    expect(host.plugin.counters.cacheHits).toBe(6)
    expect(host.plugin.cache.size).toBe(3)
    expect(fs.calls).toEqual({ reads: [], appends: [], dirs: [] })
  })

  test("a new plugin instance starts with an empty memory cache", async () => {
    const before = judge.requests.length
    await turn(createHost({ env: judgeEnv(judge.url) }))
    await turn(createHost({ env: judgeEnv(judge.url) }))
    expect(judge.requests.length - before).toBe(6)
  })
})

describe("RFE_CACHE_DIR", () => {
  test("one JSON line per judged verdict in <dir>/opencode-cache-<model>.jsonl, loaded once per model", async () => {
    const dir = tempDir()
    const fs = realFs()
    const host = createHost({ env: judgeEnv(judge.url, { RFE_CACHE_DIR: dir }), deps: fs.deps })
    const session = await turn(host, `${REPLY} The capital of Freedonia is Fredville.`)
    const file = join(dir, "opencode-cache-judge-main.jsonl")
    const written = await waitForLines(file, 3)
    // The gated (verbatim) claim is not a verdict of the judge and is not written.
    expect(written).toHaveLength(3)
    expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true)
    const state = host.plugin.sessions.get(session)
    if (!state) throw new Error("no session state")
    const context = renderContext(
      state.premises,
      state.records.map((record) => record.line),
      "Tell me about Freedonia",
    )
    const records = written.map((line) => JSON.parse(line) as CacheRecord)
    // Each claim is keyed with the sentences before it in the reply, joined to it by a NUL.
    const parts = CLAIMS.map((claim, i) =>
      i === 0 ? claim : `${CLAIMS.slice(Math.max(0, i - 2), i).join(" ")}\x00${claim}`,
    )
    expect(records.map((record) => record.k).sort()).toEqual(
      parts.map((part) => cacheKey("judge-main", context, part)).sort(),
    )
    for (const record of records) {
      expect(Object.keys(record)).toEqual(["k", "v", "s", "r", "t"])
      expect(record).toMatchObject({ v: "faithful", s: "S1", r: "stated in facts.txt" })
      expect(typeof record.t).toBe("number")
    }
    expect(readFileSync(file, "utf8")).not.toContain("Fredville")

    // A second reply with the same judge model does not read the file again.
    const again = await host.userMessage(session, "Tell me about Freedonia")
    await host.reply(session, again, REPLY)
    await host.settle()
    expect(fs.calls.reads).toEqual([file])
    expect(host.plugin.counters.cacheHits).toBe(3)
    expect(fileLines(file)).toHaveLength(3)
  })

  test("a missing directory is created", async () => {
    const dir = join(tempDir(), "a", "b")
    const host = createHost({ env: judgeEnv(judge.url, { RFE_CACHE_DIR: dir }), deps: realFs().deps })
    await turn(host)
    expect(await waitForLines(join(dir, "opencode-cache-judge-main.jsonl"), 3)).toHaveLength(3)
    expect(host.logs.filter((line) => line.level === "warn")).toEqual([])
  })

  test("the cache is read once per model per plugin lifetime", async () => {
    const dir = tempDir()
    const fs = realFs()
    const cache = createVerdictCache(dir, fs.deps, () => {
      throw new Error("no warning expected")
    })
    await Promise.all([cache.load("model-a"), cache.load("model-a"), cache.load("model-a")])
    await cache.load("model-a")
    await cache.load("hf:model/b")
    await cache.load("model-a")
    expect(fs.calls.reads).toEqual([
      join(dir, "opencode-cache-model-a.jsonl"),
      join(dir, "opencode-cache-hf_model_b.jsonl"),
    ])
  })

  test("a truncated or corrupt line is skipped while the valid ones load", async () => {
    const dir = tempDir()
    const good = (k: string, v: string): CacheRecord => ({ k, v: v as CacheRecord["v"], s: "S1", r: "why", t: 1 })
    writeFileSync(
      join(dir, "opencode-cache-judge-main.jsonl"),
      [
        JSON.stringify(good("first", "faithful")),
        '{"k":"cut","v":"unfaith',
        "garbage",
        JSON.stringify(good("second", "unfaithful")),
        '{"k":"odd","v":"maybe","t":1}',
        JSON.stringify(good("third", "unverifiable")),
        '{"k":"tail","v":"faithful","t"',
      ].join("\n"),
    )
    const warnings: string[] = []
    const cache = createVerdictCache(dir, realFs().deps, (message) => warnings.push(message))
    await cache.load("judge-main")
    expect(cache.size).toBe(3)
    expect(cache.get("first")?.v).toBe("faithful")
    expect(cache.get("second")).toEqual(good("second", "unfaithful"))
    expect(cache.get("third")?.v).toBe("unverifiable")
    for (const key of ["cut", "odd", "tail"]) expect(cache.get(key)).toBeUndefined()
    expect(warnings).toEqual([])
  })

  test("two plugin instances share the directory: B, created after A wrote, makes no judge request", async () => {
    const dir = tempDir()
    const env = judgeEnv(judge.url, { RFE_CACHE_DIR: dir })
    const before = judge.requests.length
    const a = createHost({ env, deps: realFs().deps })
    await turn(a)
    const file = join(dir, "opencode-cache-judge-main.jsonl")
    expect(await waitForLines(file, 3)).toHaveLength(3)
    expect(judge.requests.length - before).toBe(3)
    // A crash of a third process left a cut line and some garbage behind.
    writeFileSync(file, `${readFileSync(file, "utf8")}garbage\n{"k":"cut","v":"faith\n`)

    const fsB = realFs()
    const b = createHost({ env, deps: fsB.deps })
    await turn(b)
    expect(judge.requests.length - before).toBe(3)
    expect(b.plugin.counters.cacheHits).toBe(3)
    expect(fsB.calls.reads).toEqual([file])
    expect(fsB.calls.appends).toEqual([])
  })

  test("a line cut short without its newline does not swallow the next verdict appended after it", async () => {
    const dir = tempDir()
    const file = join(dir, "opencode-cache-judge-main.jsonl")
    writeFileSync(file, '{"k":"other","v":"faithful","t":1}\n{"k":"cut","v":"unfai')
    const env = judgeEnv(judge.url, { RFE_CACHE_DIR: dir })
    const before = judge.requests.length
    await turn(createHost({ env, deps: realFs().deps }))
    expect(parseCacheLines(await waitForLines(file, 4).then((found) => found.join("\n")))).toHaveLength(4)

    const b = createHost({ env, deps: realFs().deps })
    await turn(b)
    expect(judge.requests.length - before).toBe(3)
    expect(b.plugin.counters.cacheHits).toBe(3)
  })

  test("two processes appending at once: every line lands whole", async () => {
    const dir = tempDir()
    const src = new URL("../../src/judge/cache.ts", import.meta.url).pathname
    const child = `
      import { createVerdictCache } from ${JSON.stringify(src)}
      import { appendFile } from "node:fs/promises"
      const writes = []
      const cache = createVerdictCache(process.env.CACHE_DIR, {
        readText: async () => undefined,
        appendText: (path, text) => { const write = appendFile(path, text, "utf8"); writes.push(write); return write },
        ensureDir: async () => {},
      }, (message) => { console.error(message); process.exit(1) })
      await cache.load("judge-main")
      for (let i = 0; i < 500; i++) {
        cache.put("judge-main", { k: process.env.TAG + "-" + i + "-" + "f".repeat(64), v: "faithful", s: "S1", r: "reason ".repeat(12), t: i })
      }
      await Promise.all(writes)
    `
    const spawn = (tag: string) =>
      Bun.spawn([process.execPath, "-e", child], {
        env: { ...process.env, CACHE_DIR: dir, TAG: tag },
        stdout: "pipe",
        stderr: "pipe",
      })
    const children = [spawn("a"), spawn("b")]
    expect(await Promise.all(children.map((proc) => proc.exited))).toEqual([0, 0])
    const text = readFileSync(join(dir, "opencode-cache-judge-main.jsonl"), "utf8")
    expect(text.endsWith("\n")).toBe(true)
    const written = text.split("\n").filter(Boolean)
    expect(written).toHaveLength(1000)
    const records = written.map((line) => JSON.parse(line) as CacheRecord)
    expect(records.every((record) => /^[ab]-\d{1,3}-f{64}$/.test(record.k) && record.v === "faithful")).toBe(true)
    expect(new Set(records.map((record) => record.k)).size).toBe(1000)
    expect(records.filter((record) => record.k.startsWith("a-"))).toHaveLength(500)
    expect(parseCacheLines(text)).toHaveLength(1000)
  })

  test("an unusable directory (a path under a regular file) falls back to memory with exactly one warning", async () => {
    const file = join(tempDir(), "not-a-dir")
    writeFileSync(file, "x")
    const fs = realFs()
    const host = createHost({ env: judgeEnv(judge.url, { RFE_CACHE_DIR: join(file, "cache") }), deps: fs.deps })
    const before = judge.requests.length
    const session = await turn(host)
    expect(judge.requests.length - before).toBe(3)
    const again = await host.userMessage(session, "Tell me about Freedonia")
    await host.reply(session, again, REPLY)
    await host.settle()
    expect(judge.requests.length - before).toBe(3)
    expect(host.plugin.counters.cacheHits).toBe(3)
    const warnings = host.logs.filter((line) => line.message.includes("RFE_CACHE_DIR"))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.level).toBe("warn")
    expect(warnings[0]?.message).toMatch(
      /^ragfaith: cannot use RFE_CACHE_DIR \(.*\); verdicts are cached in memory only$/,
    )
    expect(host.toasts.filter((toast) => toast.message.includes("RFE_CACHE_DIR"))).toHaveLength(1)
    expect(fs.calls.appends).toEqual([])
    expect(fs.calls.reads).toEqual([])
  })

  test("a write that fails later also warns once, and memory keeps working", async () => {
    const warnings: string[] = []
    let appends = 0
    const cache = createVerdictCache(
      "/cache",
      {
        readText: async () => undefined,
        ensureDir: async () => {},
        appendText: async () => {
          appends++
          throw new Error("EROFS: read-only file system")
        },
      },
      (message) => warnings.push(message),
    )
    await cache.load("judge-main")
    for (const k of ["a", "b", "c"]) cache.put("judge-main", { k, v: "faithful", t: 1 })
    await Bun.sleep(5)
    cache.put("judge-main", { k: "d", v: "faithful", t: 1 })
    await Bun.sleep(5)
    // Appends are serialised per file, so after the first failure nothing more is tried.
    expect(appends).toBe(1)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain("EROFS")
    expect(["a", "b", "c", "d"].map((k) => cache.get(k)?.v)).toEqual(["faithful", "faithful", "faithful", "faithful"])
  })
})

describe("the token log (RFE_JUDGE_LOG)", () => {
  test("a file path gets one JSONL line per judge HTTP attempt, with tokens but no key, premise or claim", async () => {
    const seen = new Map<string, number>()
    await withJudge(
      ({ claim }) => {
        const count = (seen.get(claim) ?? 0) + 1
        seen.set(claim, count)
        return count === 1 ? { status: 503 } : { verdict: "faithful", source: "S1", reason: "stated" }
      },
      async (flaky) => {
        const path = join(tempDir(), "tokens.jsonl")
        const host = createHost({
          env: judgeEnv(flaky.url, { RFE_JUDGE_LOG: path, RFE_JUDGE_API_KEY: KEY }),
          deps: realFs().deps,
        })
        await turn(host)
        expect(flaky.requests).toHaveLength(6)
        const written = await waitForLines(path, 6)
        expect(written).toHaveLength(6)
        const entries = written.map((line) => JSON.parse(line) as TokenLogLine)
        const failed = entries.filter((entry) => entry.outcome === "http_503")
        const ok = entries.filter((entry) => entry.outcome === "ok")
        expect([failed.length, ok.length]).toEqual([3, 3])
        for (const entry of failed) {
          expect(Object.keys(entry)).toEqual(["time", "model", "claims", "attempt", "outcome", "status", "latency_ms"])
          expect(entry).toMatchObject({ model: "judge-main", claims: 1, attempt: 1, status: 503 })
        }
        for (const entry of ok) {
          expect(Object.keys(entry)).toEqual([
            "time",
            "model",
            "claims",
            "attempt",
            "outcome",
            "status",
            "latency_ms",
            "prompt_tokens",
            "completion_tokens",
            "total_tokens",
            "cached_tokens",
          ])
          expect(entry).toMatchObject({
            model: "judge-main",
            attempt: 2,
            status: 200,
            prompt_tokens: 100,
            completion_tokens: 12,
            total_tokens: 112,
            cached_tokens: 64,
          })
        }
        for (const entry of entries) {
          expect(new Date(entry.time).toISOString()).toBe(entry.time)
          expect(entry.latency_ms).toBeGreaterThanOrEqual(0)
        }
        const text = readFileSync(path, "utf8")
        for (const secret of [KEY, "Fredville", "Freedonia", "fox", "stated"]) expect(text).not.toContain(secret)
        expect(host.stderr).toEqual([])
      },
    )
  })

  test.each([
    ["no cache details", { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }, { prompt_tokens: 5 }, false],
    [
      "OpenAI-style cached tokens",
      { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 0 } },
      { cached_tokens: 0 },
      true,
    ],
    [
      "Anthropic-style cache reads",
      { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, cache_read_input_tokens: 3 },
      { cached_tokens: 3 },
      true,
    ],
    ["no usage at all", undefined, { outcome: "ok" }, false],
  ])("cached_tokens only when the provider reports them: %s", async (_name, usage, expected, hasCached) => {
    await withJudge(
      () => ({ verdict: "faithful", source: "S1", usage: usage ?? null }),
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url, { RFE_JUDGE_LOG: "stderr" }) })
        await turn(host, "Fredville is the capital city.")
        expect(host.stderr).toHaveLength(1)
        const entry = JSON.parse(host.stderr[0] ?? "") as TokenLogLine
        expect(entry).toMatchObject(expected)
        expect("cached_tokens" in entry).toBe(hasCached)
        expect("prompt_tokens" in entry).toBe(usage !== undefined)
      },
    )
  })

  test('"stderr" writes the lines to the injected writeStderr', async () => {
    const appended: string[] = []
    const host = createHost({
      env: judgeEnv(judge.url, { RFE_JUDGE_LOG: "stderr" }),
      deps: {
        appendText: async (path) => {
          appended.push(path)
        },
      },
    })
    await turn(host)
    expect(host.stderr).toHaveLength(3)
    for (const line of host.stderr) {
      expect(line.endsWith("\n")).toBe(true)
      expect(JSON.parse(line)).toMatchObject({ model: "judge-main", attempt: 1, outcome: "ok", status: 200 })
    }
    expect(appended).toEqual([])
  })

  test("unset: nothing is written anywhere", async () => {
    const appended: string[] = []
    const host = createHost({
      env: judgeEnv(judge.url),
      deps: {
        appendText: async (path) => {
          appended.push(path)
        },
      },
    })
    await turn(host)
    expect(host.plugin.counters.requests).toBe(3)
    expect(host.stderr).toEqual([])
    expect(appended).toEqual([])
  })
})
