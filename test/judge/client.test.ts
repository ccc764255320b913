import { afterAll, describe, expect, test } from "bun:test"
import { mapConcurrent } from "../../src/base/bounds.ts"
import { type Counters, newCounters, tallyInto } from "../../src/base/counters.ts"
import { hideKey, scrubError } from "../../src/capture/redact/scrub.ts"
import { type JudgeSettings, parseConfig } from "../../src/config/config.ts"
import type { Deps, TokenLogLine } from "../../src/config/effects.ts"
import { toFlaggedItems } from "../../src/feedback/note.ts"
import { directAttempt, type JudgeCompat, JudgeError, retryDelay, retryJudge } from "../../src/judge/client.ts"
import { normalizeModelId, selectJudgeModel } from "../../src/judge/models.ts"
import { JUDGE_PROMPTS, type JudgeRequest } from "../../src/judge/prompt.ts"
import { parseVerdict } from "../../src/judge/verdict.ts"
import { closedPort, distinctClaims, FACTS } from "../support/fixtures.ts"
import { createHost, nextId } from "../support/host.ts"
import { GATE_OFF, type JudgeCall, type JudgeReply, judgeEnv, startJudge, withJudge } from "../support/judge.ts"

/** Three claims, none verbatim in FACTS, so every one goes to the judge. */
const THREE = "Fredville is the capital city. Fredville has exactly three bridges. The national animal is a fox."

const faithful = startJudge(() => ({ verdict: "faithful", source: "S1", reason: "stated in facts.txt" }))
afterAll(() => faithful.stop())

function settings(baseURL: string, extra: Partial<JudgeSettings> = {}): JudgeSettings {
  return {
    provider: "test",
    route: "http",
    keyName: "RFE_JUDGE_API_KEY",
    baseURL,
    apiKey: "test-judge-key",
    mainModel: "judge-main",
    fallbackModel: "judge-fallback",
    concurrency: 8,
    timeoutMs: 2_000,
    maxAttempts: 4,
    batch: 1,
    ...extra,
  }
}

/** The direct route as the claim judge runs it: attempts with `fetch`, retried by `retryJudge`. */
function postJudge(
  judge: JudgeSettings,
  request: JudgeRequest,
  deps: Pick<Deps, "fetch" | "now" | "sleep" | "random">,
  stats: Counters,
  writeTokenLog: (line: TokenLogLine) => void,
  compat: JudgeCompat = { omitReasoning: false },
): Promise<string> {
  return retryJudge(
    directAttempt(judge, compat, deps.fetch),
    judge,
    request,
    deps,
    tallyInto(stats),
    writeTokenLog,
    compat,
  )
}

/** Effects for postJudge: real fetch to loopback, a recorded sleep that never waits, fixed clock and jitter. */
function effects(random = 0.5, now = Date.parse("2026-10-21T07:28:00Z")) {
  const sleeps: number[] = []
  const log: TokenLogLine[] = []
  return {
    sleeps,
    log,
    stats: newCounters(),
    deps: {
      fetch: (url: string, init: RequestInit) => fetch(url, init),
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms)
      },
      random: () => random,
    },
  }
}

/** A minimal judge request, as the plugin builds one per claim. */
const REQUEST = {
  model: "judge-main",
  prompt: "system prompt",
  context: "<sources>\n</sources>",
  claim: "A claim.",
  maxTokens: 256,
}

async function captureError(work: Promise<unknown>): Promise<InstanceType<typeof JudgeError>> {
  try {
    await work
  } catch (error) {
    if (error instanceof JudgeError) return error
    throw error
  }
  throw new Error("expected a JudgeError")
}

describe("the request", () => {
  test("POST {base}/chat/completions with JSON, the bearer key and the exact body", async () => {
    const calls: Array<{ url: string; method: string | undefined }> = []
    const host = createHost({
      env: judgeEnv(faithful.url),
      deps: {
        fetch: (url, init) => {
          calls.push({ url, method: init.method })
          return fetch(url, init)
        },
      },
    })
    const before = faithful.requests.length
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
    await host.settle()
    const requests = faithful.requests.slice(before)
    expect(requests).toHaveLength(3)
    expect(calls).toEqual(
      Array.from({ length: 3 }, () => ({ url: `${faithful.url}/chat/completions`, method: "POST" })),
    )
    for (const request of requests) {
      expect(request.headers["content-type"]).toBe("application/json")
      expect(request.headers.authorization).toBe("Bearer test-judge-key")
      expect(Object.keys(request.body)).toEqual(["model", "messages", "temperature", "reasoning", "max_tokens"])
      expect(request.body.model).toBe("judge-main")
      expect(request.body.temperature).toBe(0)
      expect(request.body.reasoning).toEqual({ exclude: true })
      expect(request.body.max_tokens).toBe(256)
      expect(request.body.messages.map((message) => message.role)).toEqual(["system", "user"])
      expect(request.body.messages[0]?.content).toBe(JUDGE_PROMPTS.machine)
      const user = request.body.messages[1]?.content ?? ""
      expect(user).toMatch(
        /^<sources>\n[\s\S]*\n<\/sources>\n\n<question>\nTell me about Freedonia\n<\/question>\n\n(?:<context>\n[^\n]+\n<\/context>\n)?<claim>\n[^\n]+\n<\/claim>$/,
      )
      expect(user).toContain('<source id="S1" origin="machine" ref="facts.txt:1-2">')
      expect(user).toContain("1: The capital of Freedonia is Fredville.")
    }
    expect(requests.map((request) => request.claim).sort()).toEqual([
      "Fredville has exactly three bridges.",
      "Fredville is the capital city.",
      "The national animal is a fox.",
    ])
  })

  test("all requests of one reply share a byte-identical prefix up to the per-claim part", async () => {
    const host = createHost({ env: judgeEnv(faithful.url) })
    const before = faithful.requests.length
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
    await host.settle()
    const raws = faithful.requests.slice(before).map((request) => request.raw)
    expect(raws).toHaveLength(3)
    // The per-claim part starts with the claim's context (the sentences before it), or the claim itself.
    // (The raw body is JSON, where a newline reads as the two characters \n; the prompt names <context> too.)
    const perClaim = (raw: string) =>
      raw.includes("<context>\\n") ? raw.indexOf("<context>\\n") : raw.indexOf("<claim>\\n")
    const prefixes = raws.map((raw) => raw.slice(0, perClaim(raw)))
    expect(prefixes[0]?.length).toBeGreaterThan(JUDGE_PROMPTS.machine.length)
    expect(new Set(prefixes).size).toBe(1)
    // The prefix is the start of the serialised body: model, system prompt, then the sources.
    expect(prefixes[0]?.startsWith('{"model":"judge-main","messages":[{"role":"system","content":')).toBe(true)
  })

  test("no Authorization header without a key", async () => {
    const host = createHost({ env: { ...judgeEnv(faithful.url), RFE_JUDGE_API_KEY: undefined } })
    const before = faithful.requests.length
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, "Fredville is the capital city.")
    await host.settle()
    const requests = faithful.requests.slice(before)
    expect(requests).toHaveLength(1)
    expect(requests[0]?.headers.authorization).toBeUndefined()
    expect(requests[0]?.headers["content-type"]).toBe("application/json")
  })

  test("the system prompt is bilingual, in a machine and a web variant", () => {
    for (const prompt of [JUDGE_PROMPTS.machine, JUDGE_PROMPTS.web]) {
      expect(prompt).toContain("You are an impartial fact-checking judge.")
      expect(prompt).toContain("Du bist ein unparteiischer Faktenprüfer.")
      expect(prompt).toContain("Judge only against the sources")
      expect(prompt).toContain("Urteile nur anhand der Quellen")
      expect(prompt).toMatch(/"verdict": "faithful" \| "unfaithful" \| "unverifiable"/)
    }
    expect(JUDGE_PROMPTS.machine).not.toBe(JUDGE_PROMPTS.web)
    expect(JUDGE_PROMPTS.machine).toContain('origin="machine"')
    expect(JUDGE_PROMPTS.machine).toContain("schlüssige Folgerungen")
    expect(JUDGE_PROMPTS.web).not.toContain("schlüssige Folgerungen")
  })

  test.each([
    ["a file read", "read", { filePath: FACTS.path }, "machine"],
    ["a web fetch only", "webfetch", { url: "https://docs.example.com/freedonia" }, "web"],
  ] as const)("%s is judged with the %s... prompt", async (_name, tool, args, variant) => {
    const host = createHost({ env: judgeEnv(faithful.url) })
    const before = faithful.requests.length
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Tell me about Freedonia")
    await host.toolCall(session, userID, tool, args, { output: FACTS.text })
    await host.reply(session, userID, "Fredville is the capital city.")
    await host.settle()
    const requests = faithful.requests.slice(before)
    expect(requests).toHaveLength(1)
    expect(requests[0]?.body.messages[0]?.content).toBe(JUDGE_PROMPTS[variant])
  })
})

describe("parsing the verdict", () => {
  const ids = new Set(["S1", "S2", "P"])

  test.each([
    ['{"verdict": "faithful"}', "faithful"],
    ['{"verdict":"FAITHFUL"}', "faithful"],
    ['{ "verdict" : "Unfaithful" }', "unfaithful"],
    ['```json\n{"verdict": "unverifiable", "source": "", "reason": "not there"}\n```', "unverifiable"],
    ['Thinking first. {"verdict":\n"faithful"}', "faithful"],
    ['{"verdict": "maybe"}', undefined],
    ['{"verdict": "faithful-ish"}', undefined],
    ["verdict: faithful", undefined],
    ['{"Verdict": "faithful"}', undefined],
    ["", undefined],
  ])("%j → %p", (content, verdict) => {
    expect(parseVerdict(content, ids)?.verdict).toBe(verdict as never)
  })

  test.each([
    ["S1", "S1"],
    ["P", "P"],
    [" S2 ", "S2"],
    ["S9", undefined],
    ["", undefined],
    ["facts.txt", undefined],
  ])("source %j is validated against the known ids → %p", (source, expected) => {
    expect(parseVerdict(`{"verdict":"faithful","source":"${source}"}`, ids)?.source).toBe(expected as never)
  })

  test("the reason is unescaped, redacted and clipped", () => {
    const token = `ghp_${"a1B2".repeat(9)}`
    const escaped = parseVerdict('{"verdict":"unfaithful","reason":"the file says \\"3\\" bridges"}', ids)
    expect(escaped?.reason).toBe('the file says "3" bridges')
    const secret = parseVerdict(`{"verdict":"unfaithful","reason":"the token ${token} differs"}`, ids)
    expect(secret?.reason).toBe("the token [REDACTED] differs")
    const long = parseVerdict(`{"verdict":"unfaithful","reason":"${"word ".repeat(100)}"}`, ids)
    expect(long?.reason).toHaveLength(160)
    expect(long?.reason?.endsWith("…")).toBe(true)
  })

  test("garbage is retried once with 512 tokens, then counts as unverifiable, a parse error, never cached", async () => {
    await withJudge(
      ({ claim }) =>
        claim.includes("garbled")
          ? { raw: "I believe the claim is mostly fine." }
          : { verdict: "faithful", source: "S1" },
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url, { RFE_STRICTNESS: "strict" }), correct: () => undefined })
        const session = await host.createSession()
        const reply = "The garbled bridge count is twelve. Fredville is the capital city."
        await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
        await host.settle()
        const garbled = judge.requests.filter((request) => request.claim.includes("garbled"))
        expect(garbled.map((request) => request.body.max_tokens)).toEqual([256, 512])
        // The retry differs from the first request in the budget only.
        expect(garbled[1]?.raw).toBe(garbled[0]?.raw.replace('"max_tokens":256', '"max_tokens":512'))
        expect(judge.requests).toHaveLength(3)
        expect(host.plugin.counters.parseErrors).toBe(1)
        expect(host.plugin.counters.callFailures).toBe(0)
        // Strict mode flags the parse fallback as unverifiable.
        expect(host.prompts).toHaveLength(1)
        expect(host.prompts[0]?.text).toContain("The garbled bridge count is twelve.")

        // The same turn again, with the same question and context: the faithful verdict is cached, the parse
        // failure is not.
        const again = await host.userMessage(session, "Tell me about Freedonia")
        await host.reply(session, again, reply)
        await host.settle()
        expect(judge.requests).toHaveLength(5)
        expect(judge.requests.slice(3).every((request) => request.claim.includes("garbled"))).toBe(true)
        expect(host.plugin.counters.cacheHits).toBe(1)
        expect(host.plugin.counters.parseErrors).toBe(2)
      },
    )
  })
})

describe("backoff", () => {
  test.each([
    [0.5, [375, 750, 1500]],
    [0, [250, 500, 1000]],
    [1, [500, 1000, 2000]],
  ])("exponential with jitter (random %p) → %j", (random, schedule) => {
    expect([1, 2, 3].map((attempt) => retryDelay(attempt, null, 0, () => random))).toEqual(schedule)
  })

  test("the backoff is capped at 8 s", () => {
    expect([4, 5, 6, 10].map((attempt) => retryDelay(attempt, null, 0, () => 1))).toEqual([4000, 8000, 8000, 8000])
  })

  test.each([408, 429, 500, 502, 503, 504, 529])(
    "HTTP %i is retried up to RFE_JUDGE_MAX_ATTEMPTS with backoff",
    async (status) => {
      await withJudge(
        () => ({ status }),
        async (judge) => {
          const run = effects()
          const error = await captureError(
            postJudge(settings(judge.url), REQUEST, run.deps, run.stats, (line) => run.log.push(line)),
          )
          expect(error.status).toBe(status)
          expect(error.retryable).toBe(true)
          expect(judge.requests).toHaveLength(4)
          expect(run.sleeps).toEqual([375, 750, 1500])
          expect(run.stats.requests).toBe(4)
          expect(run.stats.retries).toBe(3)
          expect(run.log.map((line) => [line.attempt, line.outcome, line.status])).toEqual([
            [1, `http_${status}`, status],
            [2, `http_${status}`, status],
            [3, `http_${status}`, status],
            [4, `http_${status}`, status],
          ])
        },
      )
    },
  )

  test("a judge that recovers: the answer of the first good attempt is returned", async () => {
    await withJudge(
      ({ index }) => (index < 2 ? { status: 503 } : { verdict: "faithful" }),
      async (judge) => {
        const run = effects()
        const content = await postJudge(settings(judge.url), REQUEST, run.deps, run.stats, () => {})
        expect(JSON.parse(content)).toEqual({ verdict: "faithful" })
        expect(judge.requests).toHaveLength(3)
        expect(run.sleeps).toEqual([375, 750])
      },
    )
  })

  test.each([1, 2, 6])("RFE_JUDGE_MAX_ATTEMPTS=%i bounds the attempts", async (maxAttempts) => {
    await withJudge(
      () => ({ status: 500 }),
      async (judge) => {
        const run = effects()
        await captureError(postJudge(settings(judge.url, { maxAttempts }), REQUEST, run.deps, run.stats, () => {}))
        expect(judge.requests).toHaveLength(maxAttempts)
        expect(run.sleeps).toHaveLength(maxAttempts - 1)
      },
    )
  })

  test("a network error (closed port) is retried with the same schedule", async () => {
    const run = effects()
    const url = `http://127.0.0.1:${closedPort()}/v1`
    const error = await captureError(
      postJudge(settings(url, { maxAttempts: 3 }), REQUEST, run.deps, run.stats, (line) => run.log.push(line)),
    )
    expect(error.status).toBeUndefined()
    expect(error.retryable).toBe(true)
    expect(error.message).toMatch(/^judge unreachable/)
    expect(run.sleeps).toEqual([375, 750])
    expect(run.stats.requests).toBe(3)
    expect(run.log.map((line) => line.outcome)).toEqual(["network_error", "network_error", "network_error"])
  })

  const NOW = Date.parse("2026-10-21T07:28:00Z")
  test.each([
    ["seconds", "2", 2000],
    ["zero seconds", "0", 0],
    ["fractional seconds", "1.5", 1500],
    ["seconds beyond the cap", "120", 30_000],
    ["an HTTP-date", "Wed, 21 Oct 2026 07:28:07 GMT", 7000],
    ["an HTTP-date beyond the cap", "Wed, 21 Oct 2026 09:00:00 GMT", 30_000],
    ["an HTTP-date in the past: backoff", "Wed, 21 Oct 2026 07:00:00 GMT", 375],
    ["garbage: backoff", "soon", 375],
    ["negative: backoff", "-3", 375],
  ])("Retry-After as %s (%j) → %i ms", async (_name, retryAfter, delay) => {
    expect(retryDelay(1, retryAfter, NOW, () => 0.5)).toBe(delay)
    await withJudge(
      ({ index }) => (index === 0 ? { status: 429, headers: { "retry-after": retryAfter } } : { verdict: "faithful" }),
      async (judge) => {
        const run = effects(0.5, NOW)
        await postJudge(settings(judge.url), REQUEST, run.deps, run.stats, () => {})
        expect(run.sleeps).toEqual([delay])
        expect(judge.requests).toHaveLength(2)
      },
    )
  })

  test.each([400, 401, 403, 404, 409, 422, 425])("HTTP %i fails fast with exactly one request", async (status) => {
    await withJudge(
      () => ({ status, body: '{"error":"nope"}' }),
      async (judge) => {
        const run = effects()
        const error = await captureError(postJudge(settings(judge.url), REQUEST, run.deps, run.stats, () => {}))
        expect(error.status).toBe(status)
        expect(error.retryable).toBe(false)
        expect(error.message).toBe(`judge answered HTTP ${status}`)
        expect(judge.requests).toHaveLength(1)
        expect(run.sleeps).toEqual([])
        expect(run.stats.retries).toBe(0)
      },
    )
  })

  test("a judge that never answers times out per attempt (RFE_JUDGE_TIMEOUT_MS=200), counted as a call failure", async () => {
    await withJudge(
      () => ({ hang: true }),
      async (judge) => {
        const host = createHost({
          env: judgeEnv(judge.url, {
            RFE_JUDGE_TIMEOUT_MS: "200",
            RFE_JUDGE_MAX_ATTEMPTS: "2",
            RFE_JUDGE_LOG: "stderr",
          }),
        })
        const session = await host.createSession()
        const started = performance.now()
        await host.readTurn(session, "Tell me about Freedonia", FACTS, "Fredville is the capital city.")
        await host.settle()
        const elapsed = performance.now() - started
        expect(judge.requests).toHaveLength(2)
        expect(elapsed).toBeGreaterThanOrEqual(380)
        expect(elapsed).toBeLessThan(2_000)
        expect(host.sleeps).toEqual([375])
        expect(host.plugin.counters.callFailures).toBe(1)
        expect(host.plugin.counters.parseErrors).toBe(0)
        const outcomes = host.stderr.map((line) => (JSON.parse(line) as TokenLogLine).outcome)
        expect(outcomes).toEqual(["timeout", "timeout"])
        const warning = host.logs.find((line) => line.message.includes("not judged"))
        expect(warning?.message).toBe(
          "ragfaith: judge timed out after 200 ms; 1 claim(s) of the last reply were not judged",
        )
        expect(host.notices).toHaveLength(1)
      },
    )
  })
})

describe("the per-attempt timeout covers the body", () => {
  test("a judge that stalls after the headers times out per attempt and is retried like a silent one", async () => {
    const stalled = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"choices":'))
          },
        }),
        { headers: { "content-type": "application/json" } },
      )
    await withJudge(
      () => ({ http: stalled }),
      async (judge) => {
        const run = effects()
        const error = await captureError(
          postJudge(settings(judge.url, { timeoutMs: 100, maxAttempts: 2 }), REQUEST, run.deps, run.stats, (line) =>
            run.log.push(line),
          ),
        )
        expect(judge.requests.length).toBe(2)
        expect(run.sleeps).toEqual([375])
        expect(run.log.map((line) => line.outcome)).toEqual(["timeout", "timeout"])
        expect(error.retryable).toBe(true)
      },
    )
  })
})

describe("failures in a reply", () => {
  test("call failures and parse failures are counted apart; a failed call is never cached", async () => {
    let broken = true
    await withJudge(
      ({ claim }) => {
        if (claim.includes("garbled")) return { raw: "no json here" }
        if (claim.includes("second") && broken) return { status: 500 }
        return { verdict: "faithful", source: "S1" }
      },
      async (judge) => {
        const host = createHost({
          env: judgeEnv(judge.url, { ...GATE_OFF, RFE_JUDGE_CONCURRENCY: "1", RFE_JUDGE_MAX_ATTEMPTS: "2" }),
        })
        const session = await host.createSession()
        const reply = "The garbled claim comes first. The second claim fails. The third claim is never sent."
        await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
        await host.settle()
        expect(judge.requests.map((request) => request.claim)).toEqual([
          "The garbled claim comes first.",
          "The garbled claim comes first.",
          "The second claim fails.",
          "The second claim fails.",
        ])
        expect(host.plugin.counters.parseErrors).toBe(1)
        expect(host.plugin.counters.callFailures).toBe(1)
        expect(host.logs.filter((line) => line.message.includes("not judged")).map((line) => line.message)).toEqual([
          "ragfaith: judge answered HTTP 500; 2 claim(s) of the last reply were not judged",
        ])

        // The judge works again: nothing of the failed reply was cached, so every claim is asked for.
        broken = false
        const again = await host.userMessage(session, "Once more")
        await host.reply(session, again, reply)
        await host.settle()
        expect(judge.requests.slice(4).map((request) => request.claim)).toEqual([
          "The garbled claim comes first.",
          "The garbled claim comes first.",
          "The second claim fails.",
          "The third claim is never sent.",
        ])
        expect(host.plugin.counters.cacheHits).toBe(0)
        expect(host.plugin.counters.parseErrors).toBe(2)
        expect(host.plugin.counters.callFailures).toBe(1)
      },
    )
  })

  test("after one claim fails for good the rest of the reply is not sent, and the user gets one notice", async () => {
    await withJudge(
      () => ({ status: 401 }),
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url, { RFE_JUDGE_CONCURRENCY: "1" }) })
        const session = await host.createSession()
        const reply = distinctClaims(5)
        await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
        await host.settle()
        expect(judge.requests).toHaveLength(1)
        expect(host.sleeps).toEqual([])
        expect(host.plugin.counters.callFailures).toBe(1)
        expect(host.told()).toEqual([
          "The judge refused the key (HTTP 401): check RFE_JUDGE_API_KEY. Replies go unchecked.",
        ])
        expect(host.logs.filter((line) => line.message.includes("not judged")).map((line) => line.message)).toEqual([
          "ragfaith: judge answered HTTP 401; 5 claim(s) of the last reply were not judged",
        ])

        // The next reply fails the same way: logged again, but no second notice.
        const next = await host.userMessage(session, "And now?")
        await host.reply(session, next, "Fredville has a large harbour in the south.")
        await host.settle()
        expect(judge.requests).toHaveLength(2)
        expect(host.notices).toHaveLength(1)
        expect(host.toasts).toEqual([])
        expect(host.logs.filter((line) => line.message.includes("not judged"))).toHaveLength(2)
      },
    )
  })

  test("with the default concurrency, a failing judge still leads to one notice for the whole reply", async () => {
    await withJudge(
      () => ({ status: 403 }),
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url) })
        const session = await host.createSession()
        await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
        await host.settle()
        expect(judge.requests.length).toBeLessThanOrEqual(3)
        expect(host.notices).toHaveLength(1)
        expect(host.prompts).toHaveLength(0)
      },
    )
  })
})

describe("concurrency", () => {
  const TEN = distinctClaims(10)

  test.each([
    ["RFE_JUDGE_CONCURRENCY=3", { RFE_JUDGE_CONCURRENCY: "3" }, 3],
    ["the default", {}, 8],
  ])("%s: a 10-claim reply has exactly that many requests in flight at most", async (_name, extra, limit) => {
    let inFlight = 0
    let peak = 0
    await withJudge(
      async () => {
        inFlight++
        peak = Math.max(peak, inFlight)
        await Bun.sleep(50)
        inFlight--
        return { verdict: "faithful", source: "S1" }
      },
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url, extra) })
        const session = await host.createSession()
        await host.readTurn(session, "Tell me about Freedonia", FACTS, TEN)
        await host.settle()
        expect(judge.requests).toHaveLength(10)
        expect(peak).toBe(limit)
      },
    )
  })

  test("mapConcurrent keeps the input order", async () => {
    const delays = [30, 5, 20, 0, 10]
    const result = await mapConcurrent(delays, 2, async (ms) => {
      await Bun.sleep(ms)
      return ms * 2
    })
    expect(result).toEqual([60, 10, 40, 0, 20])
  })
})

describe("judge selection", () => {
  test.each([
    ["GLM-5.3-Flash", "glm-5.3-flash"],
    ["hf:zai-org/GLM-5.3-Flash", "glm-5.3-flash"],
    ["zai-org/glm-5.3-flash:free", "glm-5.3-flash"],
    ["openrouter/z-ai/glm-5.3-flash", "glm-5.3-flash"],
    ["synthetic/hf:zai-org/GLM-5.3-Flash", "glm-5.3-flash"],
    ["hf:GLM-5.3-Flash:thinking", "glm-5.3-flash"],
    ["  Z-AI/GLM-5.3-FLASH  ", "glm-5.3-flash"],
    ["glm-5-flash", "glm-5-flash"],
    ["anthropic/claude-sonnet-4", "claude-sonnet-4"],
  ])("normalizeModelId(%j) → %j", (id, normalized) => {
    expect(normalizeModelId(id)).toBe(normalized)
  })

  const synthetic = parseConfig(undefined, { SYNTHETIC_API_KEY: "k" }).config.judge
  const MAIN = "hf:zai-org/GLM-5.3-Flash"
  const FALLBACK = "hf:deepseek-ai/DeepSeek-V4.1-Flash"

  test("the synthetic preset's judge models", () => {
    expect([synthetic.mainModel, synthetic.fallbackModel]).toEqual([MAIN, FALLBACK])
  })

  test.each([
    ["GLM-5.3-Flash", FALLBACK],
    ["hf:zai-org/GLM-5.3-Flash", FALLBACK],
    ["zai-org/glm-5.3-flash:free", FALLBACK],
    ["openrouter/z-ai/glm-5.3-flash", FALLBACK],
    ["synthetic/hf:zai-org/GLM-5.3-FLASH", FALLBACK],
    ["glm-5-flash", MAIN],
    ["glm-5.3", MAIN],
    ["anthropic/claude-sonnet-4", MAIN],
    [undefined, MAIN],
  ])("an active %j is judged by %j", (active, judgeModel) => {
    expect(selectJudgeModel(active, synthetic)).toBe(judgeModel)
  })

  test("a custom main model is never its own judge either", () => {
    const judge = { mainModel: "inclusionai/ling-3.0-flash", fallbackModel: "mistral/magistral-small" }
    expect(selectJudgeModel("openrouter/InclusionAI/Ling-3.0-Flash:free", judge)).toBe("mistral/magistral-small")
    expect(selectJudgeModel("ling-3.0", judge)).toBe("inclusionai/ling-3.0-flash")
  })

  type Params = { agent: string; model: { id: string; providerID: string } }
  const GLM: Params["model"] = { id: "hf:zai-org/GLM-5.3-Flash", providerID: "synthetic" }
  const CLAUDE: Params["model"] = { id: "claude-sonnet-4", providerID: "anthropic" }

  /** One turn whose model the plugin learns only from the given chat.params calls and assistant message. */
  async function modelTurn(
    env: Record<string, string>,
    params: Params[],
    assistant: { providerID: string; modelID: string } | undefined,
    userSeen = true,
  ) {
    const before = faithful.requests.length
    // The synthetic preset with its default judge models, pointed at the loopback judge.
    const host = createHost({
      env: { RFE_JUDGE_PROVIDER: "synthetic", RFE_JUDGE_BASE_URL: faithful.url, SYNTHETIC_API_KEY: "k", ...env },
    })
    const session = await host.createSession()
    // Unseen: the plugin joined mid-session and never saw the user message, nor its agent.
    const userID = userSeen ? await host.userMessage(session, "Tell me about Freedonia") : nextId("msg")
    await host.hooks["tool.execute.after"](
      { tool: "read", sessionID: session, callID: nextId("call"), args: { filePath: FACTS.path } },
      { title: "facts.txt", output: FACTS.text, metadata: {} },
    )
    const messageID = nextId("msg")
    const info = {
      id: messageID,
      parentID: userID,
      role: "assistant",
      agent: "build",
      sessionID: session,
      ...assistant,
    }
    await host.event("message.updated", { sessionID: session, info })
    for (const call of params) {
      await host.hooks["chat.params"]({ sessionID: session, ...call }, { maxOutputTokens: 8192, options: {} })
    }
    await host.hooks["experimental.text.complete"](
      { sessionID: session, messageID, partID: nextId("prt") },
      { text: "Fredville is the capital city." },
    )
    await host.event("message.updated", { sessionID: session, info: { ...info, finish: "stop" } })
    await host.idle(session)
    await host.settle()
    return faithful.requests.slice(before).map((request) => request.body.model)
  }

  test.each([
    ["chat.params of the session's agent: GLM", {}, [{ agent: "build", model: GLM }], undefined, FALLBACK],
    ["chat.params of the session's agent: another model", {}, [{ agent: "build", model: CLAUDE }], undefined, MAIN],
    ["the title agent's model is ignored", {}, [{ agent: "title", model: GLM }], undefined, MAIN],
    [
      "title after build does not override",
      {},
      [
        { agent: "build", model: GLM },
        { agent: "title", model: CLAUDE },
      ],
      undefined,
      FALLBACK,
    ],
    ["a subagent's model is ignored", {}, [{ agent: "general", model: GLM }], undefined, MAIN],
    ["the assistant message's providerID/modelID", {}, [], { providerID: "zai", modelID: "glm-5.3-flash" }, FALLBACK],
    [
      "RFE_ACTIVE_MODEL overrides detection (to GLM)",
      { RFE_ACTIVE_MODEL: "GLM-5.3-Flash" },
      [{ agent: "build", model: CLAUDE }],
      undefined,
      FALLBACK,
    ],
    [
      "RFE_ACTIVE_MODEL overrides detection (away from GLM)",
      { RFE_ACTIVE_MODEL: "anthropic/claude-sonnet-4" },
      [{ agent: "build", model: GLM }],
      { providerID: "synthetic", modelID: "hf:zai-org/GLM-5.3-Flash" },
      MAIN,
    ],
  ])("%s → the request's model", async (_name, env, params, assistant, judgeModel) => {
    expect(await modelTurn(env as Record<string, string>, params, assistant)).toEqual([judgeModel])
  })

  test.each([
    ["the title agent's model is ignored", [{ agent: "title", model: GLM }], MAIN],
    ["the build agent's model counts", [{ agent: "build", model: GLM }], FALLBACK],
    [
      "title after build does not override",
      [
        { agent: "build", model: GLM },
        { agent: "title", model: CLAUDE },
      ],
      FALLBACK,
    ],
  ])("before any user message is known: %s", async (_name, params, judgeModel) => {
    expect(await modelTurn({}, params, undefined, false)).toEqual([judgeModel])
  })
})

describe("the API key stays secret", () => {
  const KEY = "plainkey-Zq7Xv93Lm2WpT4"

  test.each([
    [
      "a key of 8 or more characters is cut out wherever it stands",
      KEY,
      `a ${KEY} b${KEY}`,
      "a [REDACTED] b[REDACTED]",
    ],
    [
      "a key under 8 characters is left alone: hiding it would garble words",
      "test",
      "the tests pass",
      "the tests pass",
    ],
    ["no key, no change", undefined, `a ${KEY}`, `a ${KEY}`],
  ])("one rule for hiding the key: %s", (_name, key, text, expected) => {
    expect(hideKey(text, key)).toBe(expected)
    expect(scrubError(text, key)).toBe(expected)
  })

  test("flagged items are redacted, keyless and clipped once, for every output", () => {
    const token = `ghp_${"a1B2".repeat(9)}`
    const result = (text: string, reason?: string, quote?: string) => ({
      claim: { text, key: text.toLowerCase() },
      verdict: "unfaithful" as const,
      source: "facts.txt:1-2",
      quote,
      reason,
      via: "judge" as const,
    })
    const [secret, keyed, long] = toFlaggedItems(
      [
        result(`The token ${token} is valid.`, `the file names ${token}`, `token: ${token}`),
        result(`The key ${KEY} works.`, `it says ${KEY}`),
        result("word ".repeat(100), "why ".repeat(100), "said ".repeat(100)),
      ],
      KEY,
    )
    expect(secret).toEqual({
      claim: "The token [REDACTED] is valid.",
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
      verdict: "unfaithful",
      source: "facts.txt:1-2",
      quote: "token: [REDACTED]",
      reason: "the file names [REDACTED]",
      via: "judge",
    })
    expect([keyed?.claim, keyed?.reason]).toEqual(["The key [REDACTED] works.", "it says [REDACTED]"])
    expect(long?.claim).toHaveLength(220)
    expect(long?.quote).toHaveLength(200)
    expect(long?.reason).toHaveLength(160)
  })

  const everything = (host: ReturnType<typeof createHost>, extra: string[] = []) =>
    JSON.stringify([host.logs, host.toasts, host.notices, host.stderr, host.warnings, host.prompts, ...extra])

  test.each([
    ["HTTP 401", { status: 401 }],
    ["HTTP 500 with the key echoed in the body", { status: 500, body: KEY }],
  ] as Array<[string, JudgeReply]>)("%s: no log line, notice, toast or error holds the key", async (_name, reply) => {
    await withJudge(
      () => reply,
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url, { RFE_JUDGE_API_KEY: KEY, RFE_JUDGE_LOG: "stderr" }) })
        const session = await host.createSession()
        await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
        await host.settle()
        expect(judge.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
        expect(host.notices.length).toBeGreaterThan(0)
        expect(everything(host)).not.toContain(KEY)
      },
    )
  })

  test("a base URL holding the key, and a fetch error that echoes the URL", async () => {
    const base = `http://127.0.0.1:${closedPort()}/${KEY}/v1`
    const host = createHost({
      env: judgeEnv(base, { RFE_JUDGE_API_KEY: KEY, RFE_JUDGE_MAX_ATTEMPTS: "2", RFE_JUDGE_LOG: "stderr" }),
      deps: {
        fetch: async (url) => {
          throw new Error(`connect ECONNREFUSED while fetching ${url} with key ${KEY}`)
        },
      },
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
    await host.settle()
    expect(host.plugin.counters.callFailures).toBeGreaterThan(0)
    const failure = host.logs.find((line) => line.message.includes("not judged"))
    expect(failure?.message).toContain("judge unreachable")
    expect(failure?.message).toContain("[REDACTED]")
    expect(host.notices).toHaveLength(1)
    expect(everything(host)).not.toContain(KEY)
  })

  test("postJudge's own error never holds the key, also from a real refused connection", async () => {
    const run = effects()
    const base = `http://127.0.0.1:${closedPort()}/${KEY}/v1?key=${KEY}`
    const refused = await captureError(
      postJudge(settings(base, { apiKey: KEY, maxAttempts: 1 }), REQUEST, run.deps, run.stats, () => {}),
    )
    const echoing = await captureError(
      postJudge(
        settings(base, { apiKey: KEY, maxAttempts: 1 }),
        REQUEST,
        {
          ...run.deps,
          fetch: async (url) => {
            throw new Error(`failed: ${url}`)
          },
        },
        run.stats,
        () => {},
      ),
    )
    expect(refused.message).toMatch(/^judge unreachable/)
    expect(echoing.message).toMatch(/^judge unreachable/)
    expect(`${refused.message} ${echoing.message}`).not.toContain(KEY)
  })

  test("a refused insecure base URL is reported without the key", () => {
    const { config, warnings } = parseConfig(undefined, {
      RFE_JUDGE_PROVIDER: "test",
      RFE_JUDGE_BASE_URL: `http://user:${KEY}@judge.example.com/${KEY}/v1`,
      RFE_JUDGE_API_KEY: KEY,
      RFE_JUDGE_MAIN_MODEL: "m",
    })
    expect(config.judgeDisabled).toMatch(/^ragfaith: nothing is judged: no clear text to judge\.example\.com/)
    expect(JSON.stringify([config.judgeDisabled, warnings])).not.toContain(KEY)
  })
})

describe("strict OpenAI-style endpoints", () => {
  /** Rejects the unknown `reasoning` field with a 400, as strict OpenAI-style endpoints do. */
  const rejectsReasoning = ({ body }: JudgeCall): JudgeReply =>
    "reasoning" in body
      ? {
          status: 400,
          body: JSON.stringify({
            error: { message: "Unrecognized request argument supplied: reasoning", type: "invalid_request_error" },
          }),
        }
      : { verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "the file says 3" }

  test("a 400 about the unknown `reasoning` field: the plugin drops it once and keeps judging", async () => {
    await withJudge(rejectsReasoning, async (strict) => {
      const host = createHost({ env: judgeEnv(strict.url, { RFE_JUDGE_CONCURRENCY: "1" }) })
      const session = await host.createSession()
      await host.readTurn(session, "Tell me about Freedonia", FACTS, "Fredville has 7 bridges. Fredville has 9 towers.")
      await host.settle()
      const bodies = strict.requests.map((request) => request.body)
      // One rejected request, then every request without the field: two claims, each flagged and given a
      // second opinion.
      expect(bodies.map((body) => "reasoning" in body)).toEqual([true, false, false, false, false])
      expect(host.plugin.counters.callFailures).toBe(0)
      expect(host.prompts).toHaveLength(1)
      expect(host.toasts).toEqual([])
    })
  })

  test("any other 400 still fails fast with one request", async () => {
    await withJudge(
      () => ({ status: 400, body: JSON.stringify({ error: { message: "model not found" } }) }),
      async (strict) => {
        const run = effects()
        await expect(postJudge(settings(strict.url), REQUEST, run.deps, run.stats, () => {})).rejects.toMatchObject({
          status: 400,
          retryable: false,
        })
        expect(strict.requests.length).toBe(1)
      },
    )
  })
})
