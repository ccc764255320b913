// One-command demo: `bun test/live/demo.ts` (or `npm run demo`).
//
// Runs one session in the real opencode (`opencode serve`, plugin copied from src/index.ts into the project's
// .opencode/plugins/) with a scripted agent on 127.0.0.1: the agent reads a file, answers with one wrong number,
// the judge flags it, ragfaith injects its note, and the agent corrects itself in the turn that follows.
// Prints the transcript in the README's words: prompt, the captured source, the reply, each statement with its
// verdict and source (and the second opinion on a contradiction), the note, the notice, and the correction.
//
// The judge is scripted unless RFE_JUDGE_BASE_URL, RFE_JUDGE_API_KEY and RFE_JUDGE_MAIN_MODEL are set: then the
// judge requests go to that real judge, through a recording pass-through on 127.0.0.1 (the agent stays scripted).

import { join } from "node:path"
import { SURVEY_NOTES } from "../support/fixtures.ts"
import { JUDGE_KEY, type JudgeReply, type JudgeRule, judgeEnv, readJudgeCall } from "../support/judge.ts"
import {
  type AgentScript,
  agentContext,
  assistantTexts,
  cleanupAll,
  type Endpoint,
  makeScratch,
  notesIn,
  type RecordedRequest,
  startEndpoint,
  startOpencode,
} from "./harness.ts"

const FILE = "facts.txt"
const PROMPT = `Read ${FILE} and tell me about Freedonia`
const REPLY =
  "Marxburg serves as the capital city of Freedonia. Seven bridges span the Zeppo river in Freedonia. " +
  "The grey heron is the national bird of Freedonia."
const CORRECTED = "Three bridges span the Zeppo river in Freedonia."

const agent: AgentScript = (c) => {
  if (c.isNote) return { text: CORRECTED }
  if (c.step === 0) return { tools: [{ name: "read", args: { filePath: FILE } }] }
  return { text: REPLY }
}

const scriptedJudge: JudgeRule = (ctx) => {
  const source = ctx.sources.find((s) => s.id !== "P")?.id ?? "S1"
  return /\bseven\b/i.test(ctx.claim)
    ? {
        verdict: "unfaithful",
        source,
        quote: "Freedonia has 3 bridges over the river Zeppo.",
        reason: "the notes say Freedonia has 3 bridges over the Zeppo",
      }
    : { verdict: "faithful", source, reason: "stated in the notes" }
}

// ── Formatting ──────────────────────────────────────────────────────────────

const WIDTH = 100
const wrap = (text: string, indent: string) =>
  text
    .split("\n")
    .flatMap((line) => {
      const out: string[] = []
      let rest = line
      while (rest.length > WIDTH - indent.length) {
        const cut = rest.lastIndexOf(" ", WIDTH - indent.length)
        const at = cut > 20 ? cut : WIDTH - indent.length
        out.push(rest.slice(0, at))
        rest = rest.slice(at).trimStart()
      }
      out.push(rest)
      return out
    })
    .map((line) => `${indent}${line}`)
    .join("\n")

const say = (label: string, text: string) => {
  console.log(`\n${label}`)
  console.log(wrap(text, "    "))
}

interface Verdict {
  verdict: string
  source?: string
  reason?: string
}

const verdictOf = (rec: RecordedRequest): Verdict => {
  const answer = rec.answer as JudgeReply | undefined
  if (!answer) return { verdict: `no answer (HTTP ${rec.status})` }
  if ("verdict" in answer) return { verdict: answer.verdict, source: answer.source, reason: answer.reason }
  if ("status" in answer) return { verdict: `HTTP ${answer.status}` }
  if ("garbage" in answer) return { verdict: "garbage body" }
  if (rec.status !== 200 || !("raw" in answer)) return { verdict: `HTTP ${rec.status}` }
  const raw = answer.raw
  return {
    verdict: /"verdict"\s*:\s*"(\w+)"/.exec(raw)?.[1] ?? `unparsed: ${raw.slice(0, 80)}`,
    source: /"source"\s*:\s*"([^"]*)"/.exec(raw)?.[1],
    reason: /"reason"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw)?.[1],
  }
}

const MARK: Record<string, string> = { faithful: "ok  ", unfaithful: "FLAG", unverifiable: "??  " }

/** A judge request for a statement another model was already asked about: the second opinion on a contradiction. */
const secondOpinions = (judged: RecordedRequest[]) => {
  const asked = new Set<string>()
  return judged.map((rec) => {
    const { claim } = readJudgeCall(rec.body)
    const again = asked.has(claim)
    asked.add(claim)
    return again
  })
}

const printVerdicts = (judged: RecordedRequest[]) => {
  const second = secondOpinions(judged)
  for (const [i, rec] of judged.entries()) {
    const ctx = readJudgeCall(rec.body)
    const v = verdictOf(rec)
    const ref = ctx.sources.find((s) => s.id === v.source)?.attrs.match(/ref="([^"]*)"/)?.[1]
    const where = v.source ? `source ${v.source}${ref ? ` (${ref})` : ""}` : "no source"
    const who = second[i] ? `second opinion, judge model ${ctx.model}` : `judge model ${ctx.model}`
    console.log(`    [${MARK[v.verdict] ?? "    "}] ${v.verdict.padEnd(12)} "${ctx.claim}"`)
    console.log(`           ${where}${v.reason ? ` - ${v.reason}` : ""}  [${who}, HTTP ${rec.status}]`)
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`

// ── Run ─────────────────────────────────────────────────────────────────────

const realJudge = ["RFE_JUDGE_BASE_URL", "RFE_JUDGE_API_KEY", "RFE_JUDGE_MAIN_MODEL"].every((k) => process.env[k])

const judgeSettings = (ep: Endpoint): Record<string, string> => {
  if (!realJudge) return judgeEnv(ep.judgeBaseURL)
  const env = process.env
  return {
    RFE_JUDGE_PROVIDER: env.RFE_JUDGE_PROVIDER ?? "custom",
    RFE_JUDGE_BASE_URL: ep.judgeBaseURL,
    RFE_JUDGE_API_KEY: env.RFE_JUDGE_API_KEY ?? "",
    RFE_JUDGE_MAIN_MODEL: env.RFE_JUDGE_MAIN_MODEL ?? "",
    ...(env.RFE_JUDGE_FALLBACK_MODEL ? { RFE_JUDGE_FALLBACK_MODEL: env.RFE_JUDGE_FALLBACK_MODEL } : {}),
    RFE_JUDGE_TIMEOUT_MS: env.RFE_JUDGE_TIMEOUT_MS ?? "60000",
  }
}

const main = async () => {
  const t0 = Date.now()
  const ep = startEndpoint({
    agent,
    judge: scriptedJudge,
    ...(realJudge ? { judgeUpstream: process.env.RFE_JUDGE_BASE_URL } : {}),
  })
  const scratch = makeScratch("ragfaith-demo-")
  const version = (await Bun.file(join(import.meta.dir, "../../package.json")).json()) as { version: string }
  console.log(`ragfaith ${version.version} live demo: real opencode, scripted agent on ${ep.url}`)
  console.log(
    realJudge
      ? `judge: REAL, ${process.env.RFE_JUDGE_BASE_URL} (model ${process.env.RFE_JUDGE_MAIN_MODEL}), via a recording pass-through`
      : `judge: scripted on ${ep.judgeBaseURL} (key ${JUDGE_KEY}); set RFE_JUDGE_BASE_URL, RFE_JUDGE_API_KEY and RFE_JUDGE_MAIN_MODEL for a real one`,
  )
  const oc = await startOpencode({
    endpoint: ep,
    scratch,
    files: { [FILE]: SURVEY_NOTES },
    plugin: { mode: "copy" },
    env: { ...judgeSettings(ep), RFE_JUDGE_LOG: join(scratch.root, "judge-log.jsonl") },
  })
  try {
    const session = await oc.createSession()
    say("USER", PROMPT)
    const res = await oc.prompt(session.id, PROMPT)
    if (!res.ok) throw new Error(`prompt failed: HTTP ${res.status} ${await res.text()}`)
    await oc.waitQuiet({ quietMs: 1500, timeoutMs: realJudge ? 180000 : 45000 })
    const messages = await oc.messages(session.id)

    const read = messages.flatMap((m) => m.parts).find((p) => p.type === "tool" && p.tool === "read")
    say(`TOOL read ${FILE} (${read?.state?.status ?? "not run"})`, SURVEY_NOTES.trimEnd())

    const judged = ep.byKind("judge")
    const agents = ep.byKind("agent")
    const sources = judged[0] ? readJudgeCall(judged[0].body).sources : []
    say(
      "SOURCES captured by ragfaith (as the judge received them)",
      sources.length
        ? sources.map((s) => `<source id="${s.id}" ${s.attrs}>${s.text}</source>`).join("\n")
        : "(no judge request was made)",
    )

    const replies = assistantTexts(messages)
    say("ASSISTANT (reply)", replies[0] ?? "(none)")

    // judge requests answer the agent reply that came just before them
    const round = (rec: RecordedRequest) => agents.filter((a) => a.seq < rec.seq).length
    const rounds = [...new Set(judged.map(round))]
    const first = rounds[0]
    console.log("\nJUDGE (one request per statement)")
    console.log(
      "    a contradiction is asked again of the other judge model, the second opinion, before it enters a note",
    )
    printVerdicts(judged.filter((r) => round(r) === first))

    const notes = notesIn(messages)
    const noteText = notes[0]?.parts.find((p) => p.synthetic)?.text
    say(
      "NOTE (the instruction the agent gets: a synthetic user message, which the TUI does not show)",
      noteText ?? "(none: no statement was flagged, so no note was sent)",
    )
    if (noteText) {
      const notice = notes[0]?.parts.find((p) => p.type === "text" && !p.synthetic)?.text
      say("NOTICE (what the TUI shows between the two replies)", notice ?? "(none)")
      const correction = agents.findIndex((a) => agentContext(a.body).isNote)
      say(
        `ASSISTANT (the correction: agent request ${correction + 1} of ${agents.length} has the note as its last user message)`,
        replies[1] ?? "(none)",
      )
      const later = judged.filter((r) => round(r) !== first)
      if (later.length) {
        console.log("\nJUDGE (the correction, judged in turn)")
        printVerdicts(later)
      }
    }
    const tokens = (await Bun.file(join(scratch.root, "judge-log.jsonl"))
      .text()
      .catch(() => "")) as string
    const seconds = secondOpinions(judged).filter(Boolean).length
    console.log(
      `\n${plural(agents.length, "agent request")}, ${plural(judged.length, "judge request")} ` +
        `(${plural(seconds, "second opinion")}), ${plural(notes.length, "note")}; ` +
        `token log lines: ${tokens.trim() ? tokens.trim().split("\n").length : 0}; took ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    )
    if (!realJudge && (notes.length !== 1 || replies.at(-1) !== CORRECTED)) {
      console.error("demo: the expected note and correction did not happen")
      process.exitCode = 1
    }
  } finally {
    await oc.stop()
    await ep.stop()
    await cleanupAll()
  }
}

await main()
