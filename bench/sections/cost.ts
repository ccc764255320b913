// Section 7 of `bun bench/run.ts`: what judging one reply costs in requests and prompt bytes, on the cost corpus.
import { redactSecrets } from "../../src/capture/redact/redact.ts"
import { splitClaims } from "../../src/claims/split.ts"
import { DEFAULTS } from "../../src/config/config.ts"
import { isVerbatimInSources, normalizeSources } from "../../src/judge/gate.ts"
import { readProcessClaim } from "../../src/judge/process-claim.ts"
import { buildJudgeBody, JUDGE_PROMPTS, pickPrompt, renderContext } from "../../src/judge/prompt.ts"
import { decideProcessClaim } from "../../src/judge/records.ts"
import { CORPUS, type CorpusEntry, playTurn } from "../../test/support/corpora/agent-turns.ts"
import { createHost } from "../../test/support/host.ts"
import { judgeEnv } from "../../test/support/judge.ts"
import { approxTokens, KB, startLatencyJudge, table, utf8Bytes } from "../lib.ts"
import { claimPartAt, drain, type Host, JUDGE_MODEL, type Report } from "./common.ts"

interface CostRow {
  entry: CorpusEntry
  naive: number[]
  filtered: number[]
  gated: number[]
  replay: number[]
  prefixBytes: number
  matchesPlugin: boolean
}

async function runCorpusTurn(host: Host, entry: CorpusEntry, judge: ReturnType<typeof startLatencyJudge>) {
  const before = judge.requests.length
  const session = await playTurn(host, entry)
  await drain(host)
  return { session, requests: judge.requests.slice(before) }
}

export async function benchCost({ print, findings }: Report) {
  print("## 7. Judge cost per reply: requests and prompt bytes")
  print()
  const judge = startLatencyJudge(0)
  // Command output counts as evidence here (RFE_EVIDENCE_SCOPE=all), since three turns rest on it.
  const host = createHost({ env: judgeEnv(judge.url, { RFE_EVIDENCE_SCOPE: "all" }) })
  const results: CostRow[] = []
  try {
    for (const entry of CORPUS) {
      const first = await runCorpusTurn(host, entry, judge)
      const replay = await runCorpusTurn(host, entry, judge)
      const state = host.plugin.sessions.get(first.session)
      const premises = state?.premises ?? []
      // what the plugin sends with each claim: the sources, the tool-call records and the user's question
      const question = redactSecrets(entry.prompt.replace(/\s+/g, " ").trim())
      const context = renderContext(
        premises,
        (state?.records ?? []).map((record) => record.line),
        question,
      )
      const prompt = pickPrompt(premises)
      const sources = normalizeSources(premises)
      const body = (claim: { text: string; before?: string }) =>
        buildJudgeBody({
          model: JUDGE_MODEL,
          prompt,
          context,
          before: claim.before && redactSecrets(claim.before),
          claim: redactSecrets(claim.text),
          maxTokens: 256,
        })
      // claims about the agent's own work that its tool calls settle cost no request
      const settledByRecords = (text: string) => {
        const claim = readProcessClaim(text)
        return claim !== undefined && decideProcessClaim(claim, state?.records ?? []) !== undefined
      }
      // (a) a naive judge: every [.!?]-split sentence, each against every raw tool output in full.
      const naiveContext = `<sources>\n${entry.sources
        .map((source, i) => `<source id="S${i + 1}">\n${source.output}\n</source>`)
        .join("\n")}\n</sources>`
      const sentences = entry.reply
        .split(/[.!?]/)
        .map((s) => s.trim())
        .filter(Boolean)
      const naive = sentences.map((s) =>
        utf8Bytes(
          buildJudgeBody({
            model: JUDGE_MODEL,
            prompt: JUDGE_PROMPTS.machine,
            context: naiveContext,
            claim: s,
            maxTokens: 256,
          }),
        ),
      )
      // (b) the claim filter, (c) plus the verbatim gate and the claims the records settle: what the plugin sends.
      const { claims } = splitClaims(entry.reply, DEFAULTS.maxClaims)
      const filtered = claims.map(body)
      const gated = claims
        .filter((claim) => !isVerbatimInSources(claim, sources) && !settledByRecords(claim.text))
        .map(body)
      const actual = first.requests.map((request) => request.raw)
      const matchesPlugin = JSON.stringify([...actual].sort()) === JSON.stringify([...gated].sort())
      const anyBody = filtered[0] ?? ""
      results.push({
        entry,
        naive,
        filtered: filtered.map(utf8Bytes),
        gated: actual.map(utf8Bytes),
        replay: replay.requests.map((request) => utf8Bytes(request.raw)),
        prefixBytes: utf8Bytes(anyBody.slice(0, claimPartAt(anyBody))),
        matchesPlugin,
      })
      if (!matchesPlugin) findings.push(`cost model and plugin disagree on ${entry.name}`)
    }
  } finally {
    judge.stop()
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  const kb = (bytes: number) => (bytes / KB).toFixed(1)
  const rows = results.map((r) => {
    const gatedBytes = sum(r.gated)
    const n = r.gated.length
    return [
      r.entry.name,
      r.entry.lang,
      String(r.naive.length),
      kb(sum(r.naive)),
      String(r.filtered.length),
      kb(sum(r.filtered)),
      String(n),
      kb(gatedBytes),
      String(r.replay.length),
      n ? `${((100 * n * r.prefixBytes) / gatedBytes).toFixed(0)}%` : "—",
      n ? `${((100 * (n - 1) * r.prefixBytes) / gatedBytes).toFixed(0)}%` : "—",
    ]
  })
  const total = (pick: (r: CostRow) => number[]) => results.reduce((acc, r) => acc + sum(pick(r)), 0)
  const count = (pick: (r: CostRow) => number[]) => results.reduce((acc, r) => acc + pick(r).length, 0)
  const gatedTotal = total((r) => r.gated)
  const prefixTotal = results.reduce((acc, r) => acc + r.gated.length * r.prefixBytes, 0)
  const cacheableTotal = results.reduce((acc, r) => acc + Math.max(0, r.gated.length - 1) * r.prefixBytes, 0)
  rows.push([
    "**total**",
    "",
    String(count((r) => r.naive)),
    kb(total((r) => r.naive)),
    String(count((r) => r.filtered)),
    kb(total((r) => r.filtered)),
    String(count((r) => r.gated)),
    kb(gatedTotal),
    String(count((r) => r.replay)),
    `${((100 * prefixTotal) / gatedTotal).toFixed(0)}%`,
    `${((100 * cacheableTotal) / gatedTotal).toFixed(0)}%`,
  ])
  print(
    table(
      [
        "reply",
        "lang",
        "(a) naive req",
        "(a) KB",
        "(b) claims req",
        "(b) KB",
        "(c) +gates req",
        "(c) KB",
        "(d) replay req",
        "prefix share",
        "cacheable",
      ],
      rows,
    ),
  )
  print()
  const tokens = (bytes: number) => approxTokens(bytes).toLocaleString("en")
  print(
    `Prompt tokens (≈ UTF-8 bytes / 4) for all ${CORPUS.length} replies: (a) ${tokens(total((r) => r.naive))}, ` +
      `(b) ${tokens(total((r) => r.filtered))}, (c) ${tokens(gatedTotal)}, (d) ${tokens(total((r) => r.replay))}. ` +
      `(c) sends ${((100 * gatedTotal) / total((r) => r.naive)).toFixed(0)}% of (a)'s bytes in ` +
      `${((100 * count((r) => r.gated)) / count((r) => r.naive)).toFixed(0)}% of its requests.`,
  )
  print(
    "Prefix share = bytes before the claim (system prompt + sources) / all request bytes; cacheable = the same " +
      "minus the first request of each reply, which writes a provider's prompt cache. The plugin's requests " +
      `match the (c) model byte for byte: ${results.every((r) => r.matchesPlugin) ? "yes" : "NO"}.`,
  )
  print()
}
