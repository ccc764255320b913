/**
 * RFE_JUDGE_BATCH: the claims of one reply in fewer judge requests. Unset, every claim is its own request
 * as the spec has it; with a batch, what makes a flag earned stays per claim, and a bad answer falls back to
 * one request per claim. Driven through the fake host against the scripted judge.
 */

import { afterAll, describe, expect, test } from "bun:test"
import { parseConfig } from "../../src/config/config.ts"
import { fileDeps } from "../../src/host/v1.ts"
import { JUDGE_BATCH_PROMPTS, JUDGE_PROMPTS } from "../../src/judge/prompt.ts"
import { parseBatchVerdicts } from "../../src/judge/verdict.ts"
import { BRIDGES_CONTRADICTED, bridgesJudge, FACTS, tempDirs, waitForLines } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, startJudge, withJudge } from "../support/judge.ts"

const dirs = tempDirs("ragfaith-batch-")
afterAll(() => dirs.cleanup())

/** A 20-statement reply about FACTS: nineteen the judge finds supported, and one wrong bridge count. */
const LONG_REPLY = [
  ...Array.from({ length: 19 }, (_, i) => `Bridge number ${i + 1} crosses the northern river at a ford.`),
  "It has 7 bridges.",
].join(" ")

async function judgedTurn(rule: (call: JudgeCall) => JudgeReply, env: Record<string, string> = {}) {
  return withJudge(rule, async (judge) => {
    const host = createHost({ env: judgeEnv(judge.url, env), correct: () => undefined, deps: fileDeps })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about the bridges.", FACTS, LONG_REPLY)
    await host.settle()
    const main = judge.requests.filter((request) => request.model === "judge-main")
    return { host, requests: [...judge.requests], main, notes: host.prompts.map((prompt) => prompt.text) }
  })
}

const bytes = (calls: readonly JudgeCall[]) => calls.reduce((sum, call) => sum + Buffer.byteLength(call.raw), 0)

describe("RFE_JUDGE_BATCH", () => {
  test("parsed from the env and the judge.batch option; default 1; a bad value warns and keeps 1; cut at 20", () => {
    expect(parseConfig(undefined, {}).config.judge.batch).toBe(1)
    expect(parseConfig(undefined, { RFE_JUDGE_BATCH: "8" }).config.judge.batch).toBe(8)
    expect(parseConfig({ judge: { batch: 4 } }, {}).config.judge.batch).toBe(4)
    expect(parseConfig(undefined, { RFE_JUDGE_BATCH: "500" }).config.judge.batch).toBe(20)
    const bad = parseConfig(undefined, { RFE_JUDGE_BATCH: "0" })
    expect(bad.config.judge.batch).toBe(1)
    expect(bad.warnings.some((warning) => warning.includes("RFE_JUDGE_BATCH"))).toBe(true)
  })

  test("unset: one claim per request, in the spec's shape, with the one-claim prompt", async () => {
    const { main } = await judgedTurn(bridgesJudge())
    expect(main).toHaveLength(20)
    for (const call of main) {
      expect(call.batch).toEqual([])
      expect(call.userContent).toMatch(/<claim>\n[^\n]+\n<\/claim>$/)
      expect(Object.values(JUDGE_PROMPTS)).toContain(call.body.messages[0]?.content ?? "")
      expect(call.body.max_tokens).toBe(256)
    }
  })

  test("8: a 20-claim reply costs at most 0.35× the main judge's requests and prompt bytes, with the same note", async () => {
    const one = await judgedTurn(bridgesJudge())
    const eight = await judgedTurn(bridgesJudge(), { RFE_JUDGE_BATCH: "8" })
    expect(eight.main.map((call) => call.batch.length).sort((a, b) => a - b)).toEqual([4, 8, 8])
    expect(eight.main.length / one.main.length).toBeLessThanOrEqual(0.35)
    expect(bytes(eight.main) / bytes(one.main)).toBeLessThanOrEqual(0.35)
    expect(eight.notes).toHaveLength(1)
    expect(eight.notes).toEqual(one.notes)
    expect(eight.notes[0]).toContain("It has 7 bridges.")
  })

  test("the batched request: each claim its own block with its id and context, the batch prompt, room to answer", async () => {
    const { main } = await judgedTurn(bridgesJudge(), { RFE_JUDGE_BATCH: "8" })
    // the first group of claims, whenever its request arrived
    const first = main.find((call) => call.userContent.includes('<claim id="c1">\nBridge number 1 '))
    expect(Object.values(JUDGE_BATCH_PROMPTS)).toContain(first?.body.messages[0]?.content ?? "")
    expect(first?.body.max_tokens).toBe(8 * 256)
    expect(first?.batch.map((item) => item.id)).toEqual(["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"])
    expect(first?.userContent).toContain(
      '<context for="c2">\nBridge number 1 crosses the northern river at a ford.\n</context>\n<claim id="c2">\n' +
        "Bridge number 2 crosses the northern river at a ford.\n</claim>",
    )
    // the sources once, before the claims
    expect(first?.userContent.match(/<sources>/g)).toHaveLength(1)
    expect(first?.userContent.indexOf("</sources>")).toBeLessThan(first?.userContent.indexOf("<claim id=") ?? 0)
  })

  test("the second opinion stays one claim per request; the quote is verified per claim", async () => {
    const { requests } = await judgedTurn(bridgesJudge(), { RFE_JUDGE_BATCH: "8" })
    const second = requests.filter((request) => request.model === "judge-fallback")
    expect(second).toHaveLength(1)
    expect(second[0]?.batch).toEqual([])
    expect(second[0]?.claim).toBe("It has 7 bridges.")
    // a quote that stands in no source demotes the flag, batched or not
    const unanchored = await judgedTurn(bridgesJudge({ ...BRIDGES_CONTRADICTED, quote: "There are four bridges" }), {
      RFE_JUDGE_BATCH: "8",
    })
    expect(unanchored.notes).toEqual([])
  })

  test("verdicts are cached per claim: a later reply reuses them whatever the batch size", async () => {
    const cacheDir = dirs.make()
    const judge = startJudge(bridgesJudge())
    try {
      const run = async (batch: string) => {
        const host = createHost({
          env: judgeEnv(judge.url, { RFE_JUDGE_BATCH: batch, RFE_CACHE_DIR: cacheDir }),
          correct: () => undefined,
          deps: fileDeps,
        })
        const session = await host.createSession()
        await host.readTurn(session, "Tell me about the bridges.", FACTS, LONG_REPLY)
        await host.settle()
        return host
      }
      await run("8")
      await waitForLines(`${cacheDir}/opencode-cache-judge-main.jsonl`, 20)
      const before = judge.requests.filter((request) => request.model === "judge-main").length
      const again = await run("1")
      expect(judge.requests.filter((request) => request.model === "judge-main").length).toBe(before)
      expect(again.plugin.counters.cacheHits).toBeGreaterThanOrEqual(20)
    } finally {
      judge.stop()
    }
  })
})

describe("a batched answer that cannot be used whole", () => {
  /** A judge that answers every batched request with `raw(call)`, and each single claim by the bridges rule. */
  const batchAnswers =
    (raw: (call: JudgeCall) => string) =>
    (call: JudgeCall): JudgeReply =>
      call.batch.length ? { raw: raw(call) } : bridgesJudge()(call)
  /** The verdicts the bridges rule gives the claims of `items`, as one batched answer. */
  const verdictsFor = (items: JudgeCall["batch"]) =>
    JSON.stringify({ verdicts: items.map((item) => ({ id: item.id, ...bridgesJudge()({ claim: item.claim }) })) })

  test.each([
    ["an answer that is no JSON", () => "I think they are all fine.", 20],
    [
      "an answer that names an id not asked",
      (call: JudgeCall) => verdictsFor([...call.batch, { id: "c99", claim: "Extra." }]),
      20,
    ],
    ["an answer without one claim's id", (call: JudgeCall) => verdictsFor(call.batch.slice(1)), 3],
    [
      "an answer that gives one id twice",
      (call: JudgeCall) => verdictsFor([...call.batch, call.batch[0] ?? { id: "c1", claim: "" }]),
      3,
    ],
  ])("%s: those claims are judged again one by one, and the note is the same", async (_name, raw, singles) => {
    const { main, notes, host } = await judgedTurn(batchAnswers(raw), { RFE_JUDGE_BATCH: "8" })
    expect(main.filter((call) => call.batch.length > 0)).toHaveLength(3)
    expect(main.filter((call) => call.batch.length === 0)).toHaveLength(singles)
    expect(host.plugin.counters.batchParseErrors).toBe(3)
    expect(notes).toHaveLength(1)
    expect(notes[0]).toContain("It has 7 bridges.")
  })

  test("nothing from a bad answer is cached", async () => {
    const cacheDir = dirs.make()
    const judge = startJudge(batchAnswers(() => '{"verdicts": [{"id": "c1", "verdict": "unfaithful"}, {"id": "c42"}]}'))
    try {
      const host = createHost({
        env: judgeEnv(judge.url, { RFE_JUDGE_BATCH: "8", RFE_CACHE_DIR: cacheDir }),
        correct: () => undefined,
        deps: fileDeps,
      })
      const session = await host.createSession()
      await host.readTurn(session, "Tell me about the bridges.", FACTS, LONG_REPLY)
      await host.settle()
      const lines = await waitForLines(`${cacheDir}/opencode-cache-judge-main.jsonl`, 20)
      // one record per claim, from its own request: the bad answer's "unfaithful" for c1 is nowhere
      expect(lines).toHaveLength(20)
      expect(lines.filter((line) => line.includes('"v":"unfaithful"'))).toHaveLength(1)
    } finally {
      judge.stop()
    }
  })

  test("a batched request that fails for good leaves its claims unjudged, as one claim's failure would", async () => {
    const { main, notes, host } = await judgedTurn(
      (call) => (call.batch.length ? { status: 401 } : bridgesJudge()(call)),
      { RFE_JUDGE_BATCH: "8" },
    )
    expect(main.length).toBeGreaterThan(0)
    expect(main.every((call) => call.batch.length > 0)).toBe(true)
    expect(notes).toEqual([])
    expect(host.plugin.counters.callFailures).toBeGreaterThan(0)
  })
})

describe("the token log", () => {
  test("one line per request, with the number of claims it held", async () => {
    const log = `${dirs.make()}/tokens.jsonl`
    await judgedTurn(bridgesJudge(), { RFE_JUDGE_BATCH: "8", RFE_JUDGE_LOG: log })
    const lines = (await waitForLines(log, 4)).map((line) => JSON.parse(line) as { model: string; claims: number })
    // the requests run side by side: their lines come in the order they end
    const sizes = lines.filter((line) => line.model === "judge-main").map((line) => line.claims)
    expect(sizes.sort((a, b) => a - b)).toEqual([4, 8, 8])
    expect(lines.filter((line) => line.model === "judge-fallback").map((line) => line.claims)).toEqual([1])
  })
})

describe("parseBatchVerdicts", () => {
  const ids = ["c1", "c2"]
  const sources = new Set(["S1", "P"])
  test.each([
    [
      "a well-formed answer",
      '{"verdicts":[{"id":"c1","verdict":"faithful","source":"S1"},{"id":"c2","verdict":"Unverifiable"}]}',
      ["c1", "c2"],
    ],
    [
      "an answer in a code fence",
      '```json\n{"verdicts":[{"id":"c2","verdict":"unfaithful","source":"S1","quote":"3 bridges"}]}\n```',
      ["c2"],
    ],
    [
      "an entry with no readable verdict",
      '{"verdicts":[{"id":"c1","verdict":"maybe"},{"id":"c2","verdict":"faithful"}]}',
      ["c2"],
    ],
  ])("%s", (_name, content, found) => {
    expect([...(parseBatchVerdicts(content, ids, sources)?.keys() ?? [])].sort()).toEqual(found)
  })

  test.each([
    ["no JSON", "all faithful"],
    ["no verdicts list", '{"verdict":"faithful"}'],
    ["an id not asked", '{"verdicts":[{"id":"c3","verdict":"faithful"}]}'],
  ])("nothing is trusted from %s", (_name, content) => {
    expect(parseBatchVerdicts(content, ids, sources)).toBeUndefined()
  })

  test("fields are read as for one claim: an unknown source is none, the reason is redacted and clipped", () => {
    const reason = `the key ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4 is in the file ${"and more ".repeat(40)}`
    const answer = JSON.stringify({ verdicts: [{ id: "c1", verdict: "faithful", source: "S9", reason }] })
    const verdict = parseBatchVerdicts(answer, ids, sources)?.get("c1")
    expect(verdict?.source).toBeUndefined()
    expect(verdict?.reason).toContain("[REDACTED]")
    expect(verdict?.reason?.length).toBeLessThanOrEqual(160)
  })
})
