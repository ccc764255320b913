// Faults of the judge on the watched host of test/support/faults.ts: every way a judge can fail, reported once.

import { afterAll, describe, expect, test } from "bun:test"
import {
  bridgeRule,
  expectHealthy,
  expectNoRejections,
  sideTraffic,
  THREE,
  twoReplies,
  WRONG,
  watchedHost,
} from "../support/faults.ts"
import { closedPort, FACTS } from "../support/fixtures.ts"
import { type JudgeReply, judgeEnv, startJudge, withJudge } from "../support/judge.ts"

const judge = startJudge(({ claim }) => bridgeRule(claim))
afterAll(() => judge.stop())

/** A judge answer of `bytes` size that is valid JSON with a verdict: only its size can reject it. */
function hugeAnswer(bytes: number): string {
  const head = JSON.stringify({ choices: [{ message: { content: '{"verdict":"faithful"}' } }], pad: "" })
  return `${head.slice(0, -2)}${"x".repeat(bytes - head.length)}"}`
}

// ── 1. judge faults ──────────────────────────────────────────────────────────────────────────────────────

interface JudgeFault {
  name: string
  /** A rule for the loopback judge, or a base URL of its own (refused port, unresolvable host). */
  judge: { rule: (claim: string) => JudgeReply } | { url: () => string }
  env?: Record<string, string>
  /** HTTP attempts per reply: the first claim's attempts; the other claims are then not sent at all. */
  attempts: number
  /** The backoff the host was asked to sleep per reply (the injected sleep never waits). */
  sleeps: number[]
  /** What the notice under the reply says, as a sentence. */
  told: RegExp
  /** The judging is still under way when the awaited hooks of another session run. */
  hangs?: boolean
}

const BACKOFF = [375, 750, 1500]
/** An answer that is not a chat completion (empty, HTML, no choices, too large): the notice says where to look. */
const BAD_BODY_TOLD = /^The judge answers something other than a chat completion: check RFE_JUDGE_BASE_URL\.$/

const JUDGE_FAULTS: JudgeFault[] = [
  {
    name: "connection refused (a closed port)",
    judge: { url: () => `http://127.0.0.1:${closedPort()}/v1` },
    attempts: 4,
    sleeps: BACKOFF,
    told: /^The judge is unreachable since \d\d:\d\d \(check RFE_JUDGE_BASE_URL\); replies go unchecked\.$/,
  },
  {
    // .invalid never resolves (RFC 6761); https, so no insecure-judge opt-in is involved.
    name: "DNS failure (nonexistent.invalid)",
    judge: { url: () => "https://nonexistent.invalid/v1" },
    env: { RFE_JUDGE_MAX_ATTEMPTS: "2" },
    attempts: 2,
    sleeps: [375],
    told: /^The judge is unreachable since \d\d:\d\d \(check RFE_JUDGE_BASE_URL\); replies go unchecked\.$/,
  },
  ...[401, 403, 404].map((status) => ({
    name: `HTTP ${status}`,
    judge: { rule: () => ({ status, body: '{"error":{"message":"nope"}}' }) },
    attempts: 1,
    sleeps: [],
    told:
      status === 404
        ? /^The judge rejects the requests \(HTTP 404\): check RFE_JUDGE_BASE_URL and RFE_JUDGE_MAIN_MODEL\.$/
        : new RegExp(
            `^The judge refused the key \\(HTTP ${status}\\): check RFE_JUDGE_API_KEY\\. Replies go unchecked\\.$`,
          ),
  })),
  {
    name: "a 429 storm without Retry-After",
    judge: { rule: () => ({ status: 429 }) },
    attempts: 4,
    sleeps: BACKOFF,
    told: /^The judge is rate-limited since \d\d:\d\d; replies go unchecked until it answers\.$/,
  },
  {
    name: "a 429 storm with Retry-After: 3",
    judge: { rule: () => ({ status: 429, headers: { "retry-after": "3" } }) },
    attempts: 4,
    sleeps: [3000, 3000, 3000],
    told: /^The judge is rate-limited since \d\d:\d\d; replies go unchecked until it answers\.$/,
  },
  {
    name: "a 429 storm with Retry-After: 3600 (capped at 30 s)",
    judge: { rule: () => ({ status: 429, headers: { "retry-after": "3600" } }) },
    attempts: 4,
    sleeps: [30_000, 30_000, 30_000],
    told: /^The judge is rate-limited since \d\d:\d\d; replies go unchecked until it answers\.$/,
  },
  ...[500, 502, 503].map((status) => ({
    name: `HTTP ${status}`,
    judge: { rule: () => ({ status, body: "upstream failed" }) },
    attempts: 4,
    sleeps: BACKOFF,
    told: new RegExp(
      `^The judge fails \\(HTTP ${status}\\) since \\d\\d:\\d\\d; replies go unchecked until it answers\\.$`,
    ),
  })),
  {
    name: "an HTML error page with 502 (a proxy in the way)",
    judge: { rule: () => ({ status: 502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>" }) },
    attempts: 4,
    sleeps: BACKOFF,
    told: /^The judge fails \(HTTP 502\) since \d\d:\d\d; replies go unchecked until it answers\.$/,
  },
  {
    name: "a server that accepts and never answers (RFE_JUDGE_TIMEOUT_MS=100)",
    judge: { rule: () => ({ hang: true }) },
    env: { RFE_JUDGE_TIMEOUT_MS: "100", RFE_JUDGE_MAX_ATTEMPTS: "2" },
    attempts: 2,
    sleeps: [375],
    told: /^The judge has not answered since \d\d:\d\d; replies go unchecked until it does\.$/,
    hangs: true,
  },
  {
    name: "an empty 200 body",
    judge: { rule: () => ({ status: 200, body: "" }) },
    attempts: 1,
    sleeps: [],
    told: BAD_BODY_TOLD,
  },
  {
    name: "HTML instead of JSON with 200",
    judge: { rule: () => ({ status: 200, body: "<!doctype html><html><body>Welcome to nginx!</body></html>" }) },
    attempts: 1,
    sleeps: [],
    told: BAD_BODY_TOLD,
  },
  {
    name: "a JSON body without choices",
    judge: { rule: () => ({ status: 200, body: '{"error":{"message":"model not found"}}' }) },
    attempts: 1,
    sleeps: [],
    told: BAD_BODY_TOLD,
  },
  {
    name: "a 10 MB body with its Content-Length",
    judge: {
      rule: () => ({
        status: 200,
        body: hugeAnswer(10 * 1024 * 1024),
        headers: { "content-type": "application/json" },
      }),
    },
    attempts: 1,
    sleeps: [],
    told: BAD_BODY_TOLD,
  },
]

describe("judge faults", () => {
  test("a judge that never answers with a readable verdict is reported once, and nothing is cached", async () => {
    await withJudge(
      () => ({ raw: "I think this claim is probably fine." }),
      async (garbled) => {
        const host = watchedHost({ env: judgeEnv(garbled.url) })
        await twoReplies(host, THREE)
        expect(host.plugin.counters.parseErrors).toBe(6)
        expect(host.plugin.counters.cacheHits).toBe(0)
        expect(host.told()).toEqual(["The judge judge-main answers without a verdict: check RFE_JUDGE_MAIN_MODEL."])
        expect(host.toasts).toEqual([])
        expect(host.prompts).toHaveLength(0)
        expectHealthy(host)
      },
    )
  })

  test.each(JUDGE_FAULTS.map((fault) => [fault.name, fault] as const))(
    "%s: hooks stay fast, nothing throws, counters tell, and ONE notice over two replies",
    async (_name, fault) => {
      const { judge: spec } = fault
      const served = "rule" in spec ? startJudge(({ claim }) => spec.rule(claim)) : undefined
      const url = served?.url ?? ("url" in fault.judge ? fault.judge.url() : "")
      try {
        const host = watchedHost({
          env: judgeEnv(url, { RFE_JUDGE_CONCURRENCY: "1", RFE_JUDGE_LOG: "stderr", ...fault.env }),
        })
        const started = performance.now()
        const { inFlight, first } = await twoReplies(host)
        if (fault.hangs) expect(inFlight).toBe(1)
        // Backoff is recorded, never waited for (a 30 s Retry-After included); only real timeouts take time.
        expect(performance.now() - started).toBeLessThan(2_000)

        // Per reply: the first claim's attempts with their backoff, then the rest of the reply is skipped.
        expect(first.requests).toBe(fault.attempts)
        expect(first.sleeps).toEqual(fault.sleeps)
        expect(first.callFailures).toBe(1)
        expect(host.plugin.counters).toMatchObject({
          requests: 2 * fault.attempts,
          retries: 2 * (fault.attempts - 1),
          callFailures: 2,
          parseErrors: 0,
          claimsJudged: 0,
          cacheHits: 0,
          notes: 0,
        })
        if (served) expect(served.requests).toHaveLength(2 * fault.attempts)
        expect(host.sleeps).toEqual([...fault.sleeps, ...fault.sleeps])
        expect(host.stderr).toHaveLength(2 * fault.attempts)

        // The user hears of it once, under the reply it concerns (no toast over it); the log says it per reply.
        expect(first.notices).toBe(1)
        expect(host.notices).toHaveLength(1)
        expect(host.toasts).toEqual([])
        // For people: what happened, since when and what to check; no doubled name, two rows at most.
        expect(host.told()[0]).toMatch(fault.told)
        expect(host.notices[0]?.text.startsWith("Automatic check: ")).toBe(true)
        expect(host.notices[0]?.text.split("\n").length).toBeLessThanOrEqual(2)
        const notJudged = host.logs.filter((line) =>
          line.message.includes("claim(s) of the last reply were not judged"),
        )
        expect(notJudged.map((line) => line.level)).toEqual(["warn", "warn"])
        expect(notJudged[0]?.message).toMatch(/; 3 claim\(s\)/)
        expect(host.prompts).toEqual([])
        expectHealthy(host)
      } finally {
        served?.stop()
      }
    },
  )

  test("a 10 MB body streamed without a Content-Length is rejected the same way", async () => {
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024))
    const answer = new TextEncoder().encode(hugeAnswer(10 * 1024 * 1024))
    const streamed = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            for (let at = 0; at < answer.length; at += chunk.length)
              controller.enqueue(answer.slice(at, at + chunk.length))
            controller.close()
          },
        }),
        { headers: { "content-type": "application/json" } },
      )
    await withJudge(
      () => ({ http: streamed }),
      async (served) => {
        const host = watchedHost({ env: judgeEnv(served.url, { RFE_JUDGE_CONCURRENCY: "1" }) })
        await twoReplies(host)
        expect(host.plugin.counters).toMatchObject({ requests: 2, retries: 0, callFailures: 2, claimsJudged: 0 })
        expect(host.told()).toEqual([
          "The judge answers something other than a chat completion: check RFE_JUDGE_BASE_URL.",
        ])
        expectHealthy(host)
      },
    )
  })

  test("a fetch that rejects with a value that cannot even be printed", async () => {
    const host = watchedHost({
      env: judgeEnv(judge.url, { RFE_JUDGE_CONCURRENCY: "1", RFE_JUDGE_MAX_ATTEMPTS: "2" }),
      deps: { fetch: () => Promise.reject(Object.create(null)) },
    })
    await twoReplies(host)
    expect(host.plugin.counters.callFailures).toBe(2)
    expect(host.notices).toHaveLength(1)
    expectHealthy(host)
  })

  test("a fetch that throws synchronously is a network failure like any other", async () => {
    const host = watchedHost({
      env: judgeEnv(judge.url, { RFE_JUDGE_CONCURRENCY: "1", RFE_JUDGE_MAX_ATTEMPTS: "2" }),
      deps: {
        fetch: () => {
          throw new TypeError("fetch is not available here")
        },
      },
    })
    await twoReplies(host)
    expect(host.plugin.counters).toMatchObject({ requests: 4, retries: 2, callFailures: 2 })
    expect(host.sleeps).toEqual([375, 375])
    expect(host.told()).toEqual([
      expect.stringMatching(
        /^The judge is unreachable since \d\d:\d\d \(check RFE_JUDGE_BASE_URL\); replies go unchecked\.$/,
      ),
    ])
    expectHealthy(host)
  })

  test("a slow judge (150 ms, within the timeout) still judges: the hooks do not wait, the note comes", async () => {
    await withJudge(
      async ({ claim }) => {
        await Bun.sleep(150)
        return bridgeRule(claim)
      },
      async (slow) => {
        const host = watchedHost({ env: judgeEnv(slow.url, { RFE_JUDGE_TIMEOUT_MS: "2000" }) })
        const session = await host.createSession()
        const started = performance.now()
        await host.readTurn(session, "Tell me about Freedonia", FACTS, WRONG)
        // The turn's hooks all ran while no verdict could exist yet.
        expect(performance.now() - started).toBeLessThan(150)
        expect(host.plugin.pending.size).toBe(1)
        await sideTraffic(host)
        await host.settle()
        expect(host.prompts).toHaveLength(1)
        expect(host.prompts[0]?.text).toContain('"It has 7 bridges."')
        // Two claims, and a second opinion on the one flagged.
        expect(host.plugin.counters).toMatchObject({ requests: 3, callFailures: 0, claimsJudged: 3, notes: 1 })
        expect(host.toasts).toEqual([])
        expectHealthy(host)
      },
    )
  })

  test("a judge that recovers clears the failure: a later outage gets a notice of its own", async () => {
    let status = 503
    await withJudge(
      ({ claim }) => (status === 200 ? bridgeRule(claim) : { status }),
      async (flaky) => {
        const host = watchedHost({
          env: judgeEnv(flaky.url, { RFE_JUDGE_CONCURRENCY: "1", RFE_JUDGE_MAX_ATTEMPTS: "1" }),
        })
        const session = await host.createSession()
        await host.readTurn(session, "Tell me about Freedonia", FACTS, THREE)
        await host.settle()
        for (const [next, reply] of [
          [503, THREE],
          [503, THREE],
          [200, THREE],
          // The judge is down again; a new reply, since the three claims above are now cached.
          [503, "Fredville has a harbour on the southern coast."],
        ] as const) {
          status = next
          const user = await host.userMessage(session, "Again")
          await host.reply(session, user, reply)
          await host.settle()
        }
        expect(host.notices).toHaveLength(2)
        expect(host.plugin.counters.callFailures).toBe(4)
        expectHealthy(host)
      },
    )
  })
})

expectNoRejections()
