/**
 * Section 11: what RFE_JUDGE_BATCH saves. The ten-turn claims corpus and a 20-claim reply go through the real
 * plugin on the fake host for batch sizes 1, 4 and 8, against the scripted judge, which answers a batched
 * request claim by claim exactly as it answers one claim alone. Counted: requests, prompt bytes (the bodies
 * sent) and approximate input tokens, for the main judge and the second opinion; and the verdicts of every
 * claim, which must be the same whatever the batch size.
 */

import { createHash } from "node:crypto"
import { CORPUS, type CorpusEntry, playTurn } from "../test/support/corpora/agent-turns.ts"
import { bridgesJudge, FACTS } from "../test/support/fixtures.ts"
import { createHost } from "../test/support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, startJudge } from "../test/support/judge.ts"
import { approxTokens, table } from "./lib.ts"

const SIZES = [1, 4, 8] as const

/** A 20-statement reply about FACTS: nineteen supported, one wrong bridge count. */
const LONG_REPLY = [
  ...Array.from({ length: 19 }, (_, i) => `Bridge number ${i + 1} crosses the northern river at a ford.`),
  "It has 7 bridges.",
].join(" ")

/**
 * A judge with a fixed mind per claim, for the corpus: about one claim in six is contradicted, quoting a line
 * of its first source so the quote check lets it through; the rest are faithful.
 */
function corpusJudge(call: JudgeCall): JudgeReply {
  const digest = createHash("sha256").update(call.claim).digest()[0] ?? 0
  if (digest % 6 !== 0) return { verdict: "faithful", source: call.sources[0]?.id ?? "S1" }
  const source = call.sources.find((candidate) => candidate.id.startsWith("S"))
  const line = source?.text
    .split("\n")
    .map((text) => text.replace(/^\s*\d+: /, "").trim())
    .find((text) => text.length >= 12)
  return line
    ? { verdict: "unfaithful", source: source?.id, quote: line.slice(0, 60), reason: "the source says otherwise" }
    : { verdict: "unverifiable" }
}

interface Spend {
  requests: number
  bytes: number
  tokens: number
}

interface Run {
  main: Spend
  second: Spend
  /** Every claim's verdict, in reply order: what must not change with the batch size. */
  verdicts: string[]
  notes: number
}

const spend = (calls: readonly JudgeCall[]): Spend => {
  const bytes = calls.reduce((sum, call) => sum + Buffer.byteLength(call.raw), 0)
  return { requests: calls.length, bytes, tokens: approxTokens(bytes) }
}

async function runTurns(
  batch: number,
  rule: (call: JudgeCall) => JudgeReply,
  turns: ReadonlyArray<Pick<CorpusEntry, "prompt" | "sources" | "reply">>,
): Promise<Run> {
  const judge = startJudge(rule)
  const verdicts: string[] = []
  try {
    const env = judgeEnv(judge.url, { RFE_JUDGE_BATCH: String(batch), RFE_EVIDENCE_SCOPE: "all" })
    const host = createHost({ env, correct: () => undefined })
    for (const turn of turns) {
      const session = await playTurn(host, turn)
      await host.settle()
      const items = host.plugin.sessions.get(session)?.report?.items ?? []
      verdicts.push(...items.map((item) => `${item.claim} → ${item.verdict}`))
    }
    return {
      main: spend(judge.requests.filter((call) => call.model === "judge-main")),
      second: spend(judge.requests.filter((call) => call.model === "judge-fallback")),
      verdicts,
      notes: host.prompts.length,
    }
  } finally {
    judge.stop()
  }
}

const LONG_TURN = {
  prompt: "Tell me about the bridges.",
  sources: [
    {
      tool: "read" as const,
      args: { filePath: FACTS.path },
      output: `<path>${FACTS.path}</path>\n<type>file</type>\n<content>\n${FACTS.text
        .split("\n")
        .map((line, i) => `${i + 1}: ${line}`)
        .join("\n")}\n\n(End of file - total 2 lines)\n</content>`,
      title: "facts.txt",
      metadata: { display: { type: "file", path: FACTS.path, lineStart: 1, lineEnd: 2 } },
    },
  ],
  reply: LONG_REPLY,
}

/** Section 11; returns its targets. */
export async function benchBatch(print: (line?: string) => void): Promise<Array<[string, string, string, string]>> {
  print("## 11. Batched judging (RFE_JUDGE_BATCH): requests, prompt bytes and tokens per reply")
  print()
  const targets: Array<[string, string, string, string]> = []
  const rows: Array<Array<string | number>> = []
  for (const [name, rule, turns] of [
    [`claims corpus (${CORPUS.length} replies)`, corpusJudge, CORPUS],
    ["a 20-claim reply", bridgesJudge(), [LONG_TURN]],
  ] as const) {
    const runs = new Map<number, Run>()
    for (const size of SIZES) runs.set(size, await runTurns(size, rule, turns))
    const base = runs.get(1) as Run
    const perReply = (value: number) => (value / turns.length).toFixed(1)
    const perReplyWhole = (value: number) => Math.round(value / turns.length).toLocaleString("en")
    for (const size of SIZES) {
      const run = runs.get(size) as Run
      const same = JSON.stringify(run.verdicts) === JSON.stringify(base.verdicts) && run.notes === base.notes
      rows.push([
        name,
        size,
        perReply(run.main.requests),
        perReplyWhole(run.main.bytes),
        perReplyWhole(run.main.tokens),
        `${((run.main.bytes / base.main.bytes) * 100).toFixed(0)}%`,
        perReply(run.second.requests),
        same ? "same" : "DIFFERENT",
      ])
      if (!same) throw new Error(`batch ${size} changed the verdicts on ${name}`)
    }
    if (name === "a 20-claim reply") {
      const eight = runs.get(8) as Run
      const requests = eight.main.requests / base.main.requests
      const bytes = eight.main.bytes / base.main.bytes
      const worst = Math.max(requests, bytes)
      targets.push([
        "11. batch 8, 20-claim reply: main-judge requests and bytes",
        "≤ 0.35× of batch 1, same note",
        `${requests.toFixed(2)}× requests, ${bytes.toFixed(2)}× bytes`,
        worst <= 0.35 ? "met" : "MISSED",
      ])
    }
  }
  print(
    table(
      [
        "input",
        "batch",
        "main requests / reply",
        "main prompt bytes / reply",
        "≈ input tokens / reply",
        "bytes vs batch 1",
        "second opinions / reply",
        "verdicts",
      ],
      rows,
    ),
  )
  print()
  print(
    "Tokens are bytes / 4. The scripted judge decides each claim of a batch as it decides the claim alone, so " +
      "equal verdicts show the plumbing, not a real model's accuracy on batched prompts, which was not measured.",
  )
  print()
  return targets
}
