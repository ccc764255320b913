/**
 * The noisy-judge benchmark: labelled agent turns (test/support/corpora/noisy-turns.ts) go through the real plugin, driven
 * by the test suite's fake host, against a scripted judge that makes mistakes at stated rates. It measures
 * how many of the claims that reach a note are really wrong (precision) and how many wrong claims reach one
 * (recall), with each of the plugin's safeguards off and on, and what the safeguards cost in judge calls.
 *
 *   bun bench/noisy.ts       this benchmark alone (also section 9 of `bun bench/run.ts`)
 *
 * The figures describe the error model below, not any real judge: no real model can be reached from here.
 */

import { createHash } from "node:crypto"
import type { Config } from "../src/config/config.ts"
import { NOISY_TURNS, type NoisyClaim, type NoisyTurn } from "../test/support/corpora/noisy-turns.ts"
import { readOutput } from "../test/support/fixtures.ts"
import { createHost } from "../test/support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../test/support/judge.ts"
import { table } from "./lib.ts"
import { describeNamedCorpus, measureNamed, type NamedOutcome } from "./noisy-named.ts"

/**
 * How the scripted judge errs. Each rate is an assumption of this benchmark: the false-flag rates are set so
 * that the bare judge's precision lands near what per-claim flash judges were measured at (0.377 in the
 * research this plugin comes from); the miss rates are guesses that no measurement here backs, which is
 * why the benchmark also prints how recall moves when they are higher. Draws are deterministic per model
 * and claim, and the two judge models err independently.
 */
export const ERROR_MODEL = {
  /** A faithful claim answered `unfaithful`, quoting words that stand in no source. */
  inventedQuote: 0.25,
  /** A faithful claim answered `unfaithful`, quoting a real sentence of a source that does not bear on it. */
  irrelevantQuote: 0.15,
  /** A reference-less claim ("It makes 5 attempts.") judged without the sentence before it is misread. */
  misreadWithoutContext: 0.6,
  /** An unfaithful claim answered `faithful`. */
  missed: 0.03,
  /** An unfaithful claim answered `unfaithful`, but with the source's words paraphrased rather than copied. */
  paraphrasedQuote: 0.02,
  /** A false claim about the agent's own work (tests, build, edits) answered `faithful`. */
  processMissed: 0.4,
}

type ErrorModel = typeof ERROR_MODEL

type Checks = Config["checks"]
const ALL_OFF: Checks = { context: false, question: false, quotes: false, secondOpinion: false, records: false }
const ALL_ON: Checks = { context: true, question: true, quotes: true, secondOpinion: true, records: true }
const CONFIGS: Array<[string, Checks]> = [
  ["bare judge (every check off)", ALL_OFF],
  ["+ claims in context", { ...ALL_OFF, context: true, question: true }],
  ["+ quoted evidence", { ...ALL_OFF, quotes: true }],
  ["+ second opinion", { ...ALL_OFF, secondOpinion: true }],
  ["+ process claims from records", { ...ALL_OFF, records: true }],
  ["all checks on (the default)", ALL_ON],
]

/**
 * The work tree of a turn's project: the corpus describes real projects, so a source file a claim names
 * (`src/server.ts`, `migrations/0006_order_totals.sql`) is taken to exist there, touched or not; a code name
 * such as `loadConfig` or `cache.get` is no file.
 */
export const projectFileExists = (path: string) =>
  /^\/project\/(?:[\w.-]+\/)+[\w.-]+\.(?:ts|tsx|js|py|sql|md|json|toml|ya?ml)$/.test(path)

/** A deterministic draw in [0, 1) for one model, claim and purpose. */
function draw(...parts: string[]): number {
  return Number.parseInt(createHash("sha256").update(parts.join("\x00")).digest("hex").slice(0, 8), 16) / 2 ** 32
}

/** The sentences of a turn's sources, as an erring judge might quote them. */
function sentencesOf(turn: NoisyTurn): string[] {
  return turn.sources
    .flatMap((source) => source.text.split(/(?<=[.!?])\s+|\n+/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 20 && !/[`<>]/.test(sentence))
}

/** The id of the source a quote stands in, as the plugin numbered them in this request. */
function sourceOf(call: JudgeCall, quote: string): string {
  return call.sources.find((source) => source.text.includes(quote))?.id ?? call.sources[0]?.id ?? "S1"
}

/** The judge's answer for one claim of a turn, by the error model. */
function erringAnswer(call: JudgeCall, turn: NoisyTurn, claim: NoisyClaim, errors: ErrorModel): JudgeReply {
  const u = draw(call.model, turn.name, claim.text)
  const irrelevant = () => {
    const pool = sentencesOf(turn).filter((s) => s !== claim.support && s !== claim.contradiction)
    const quote = pool[Math.floor(draw(call.model, claim.text, "pick") * pool.length)] ?? pool[0] ?? ""
    return { verdict: "unfaithful", source: sourceOf(call, quote), quote, reason: "the source says otherwise" }
  }
  const supported = () => ({ verdict: "faithful", source: sourceOf(call, claim.support ?? ""), quote: claim.support })
  if (claim.truth === "unfaithful") {
    const contradiction = claim.contradiction ?? ""
    const missRate = claim.process ? errors.processMissed : errors.missed
    if (u < missRate) return supported()
    if (u < missRate + errors.paraphrasedQuote) {
      return { verdict: "unfaithful", source: sourceOf(call, contradiction), quote: `roughly: ${contradiction}` }
    }
    return {
      verdict: "unfaithful",
      source: sourceOf(call, contradiction),
      quote: contradiction,
      reason: "contradicted",
    }
  }
  const withoutContext = claim.needsContext && !call.userContent.includes("<context>\n")
  if (withoutContext && draw(call.model, claim.text, "context") < errors.misreadWithoutContext) return irrelevant()
  if (u < errors.inventedQuote) {
    return { verdict: "unfaithful", source: "S1", quote: "the documented value differs from this one", reason: "wrong" }
  }
  if (u < errors.inventedQuote + errors.irrelevantQuote) return irrelevant()
  return supported()
}

/** Finds the labelled turn and claim a judge request is about: by the claim, then by the sources it carries. */
function labelFor(call: JudgeCall): { turn: NoisyTurn; claim: NoisyClaim } | undefined {
  const matches = NOISY_TURNS.flatMap((turn) =>
    turn.claims.filter((claim) => claim.text === call.claim).map((claim) => ({ turn, claim })),
  )
  if (matches.length <= 1) return matches[0]
  return matches.find(({ turn }) =>
    turn.sources.every((source) => !source.text || call.userContent.includes(source.text.slice(0, 40))),
  )
}

const ruleFor =
  (errors: ErrorModel) =>
  (call: JudgeCall): JudgeReply => {
    const label = labelFor(call)
    return label
      ? erringAnswer(call, label.turn, label.claim, errors)
      : { verdict: "unverifiable", reason: "unlabelled claim" }
  }

/** One turn as opencode would run it: the question, every tool call, the reply, idle. */
async function runTurn(host: ReturnType<typeof createHost>, turn: NoisyTurn) {
  const session = await host.createSession()
  const userID = await host.userMessage(session, turn.question)
  for (const source of turn.sources) {
    const path = `/project/${source.target}`
    if (source.tool === "read") {
      await host.toolCall(session, userID, "read", { filePath: path }, readOutput(path, source.text))
    } else if (source.tool === "edit") {
      await host.toolCall(session, userID, "edit", { filePath: path, oldString: "a", newString: "b" }, { output: "" })
    } else if (source.tool === "bash") {
      const args = { command: source.target, description: "run" }
      await host.toolCall(session, userID, "bash", args, { output: source.text, metadata: { exit: source.exit ?? 0 } })
    } else {
      await host.toolCall(
        session,
        userID,
        "webfetch",
        { url: source.target, format: "markdown" },
        { output: source.text },
      )
    }
  }
  const before = host.prompts.length
  await host.reply(session, userID, turn.reply)
  await host.settle()
  const note = host.prompts.slice(before)[0]?.text ?? ""
  return [...note.matchAll(/^\d+\. "(.+?)" \[/gm)].map((match) => match[1] ?? "")
}

interface Outcome {
  flagged: number
  trueFlags: number
  unfaithful: number
  requests: number
  /** Contradictions the first judge model answered: each may cost one second opinion. */
  firstContradictions: number
  secondOpinions: number
  promptBytes: number
  extraBytes: number
  wrongNotes: number
  notes: number
}

async function measure(checks: Checks, errors: ErrorModel = ERROR_MODEL, second?: JudgeReply): Promise<Outcome> {
  let firstContradictions = 0
  const rule = ruleFor(errors)
  const counting = (call: JudgeCall) => {
    // `second` stands for a second model that answers no verdict at all (an error, prose, a timeout).
    const answer = second && call.model === "judge-fallback" ? second : rule(call)
    if (call.model === "judge-main" && "verdict" in answer && answer.verdict === "unfaithful") firstContradictions++
    return answer
  }
  return withJudge(counting, async (judge) => {
    const host = createHost({
      env: judgeEnv(judge.url, { RFE_EVIDENCE_SCOPE: "all", RFE_JUDGE_CONCURRENCY: "4" }),
      adjust: (config) => ({ ...config, checks }),
      correct: () => undefined,
      deps: { fileExists: projectFileExists },
    })
    const outcome: Outcome = {
      flagged: 0,
      trueFlags: 0,
      unfaithful: 0,
      requests: 0,
      firstContradictions: 0,
      secondOpinions: 0,
      promptBytes: 0,
      extraBytes: 0,
      wrongNotes: 0,
      notes: 0,
    }
    for (const turn of NOISY_TURNS) {
      const flagged = await runTurn(host, turn)
      const truth = new Map(turn.claims.map((claim) => [claim.text, claim.truth]))
      const right = flagged.filter((text) => truth.get(text) === "unfaithful").length
      outcome.flagged += flagged.length
      outcome.trueFlags += right
      outcome.unfaithful += turn.claims.filter((claim) => claim.truth === "unfaithful").length
      if (flagged.length) outcome.notes++
      if (right < flagged.length) outcome.wrongNotes++
    }
    const bytes = (requests: JudgeCall[]) => requests.reduce((sum, request) => sum + request.raw.length, 0)
    outcome.requests = judge.requests.length
    outcome.promptBytes = bytes(judge.requests)
    outcome.extraBytes = bytes(judge.requests.filter((request) => request.model === "judge-fallback"))
    outcome.secondOpinions = judge.requests.filter((request) => request.model === "judge-fallback").length
    outcome.firstContradictions = firstContradictions
    return outcome
  })
}

const ratio = (part: number, whole: number) => (whole ? (part / whole).toFixed(3) : "n/a")
const precision = (o: Outcome) => (o.flagged ? o.trueFlags / o.flagged : 0)
const recall = (o: Outcome) => (o.unfaithful ? o.trueFlags / o.unfaithful : 0)

/**
 * What the figures cannot show is how often a real judge misses a contradiction. Each miss costs recall
 * twice once two models must agree, so the main rows are shown again with higher miss rates.
 */
async function printSensitivity(print: (text?: string) => void) {
  const rows: Array<Array<string | number>> = []
  for (const [missed, paraphrasedQuote] of [
    [ERROR_MODEL.missed, ERROR_MODEL.paraphrasedQuote],
    [0.06, 0.03],
    [0.1, 0.05],
    [0.2, 0.05],
  ] as const) {
    const errors = { ...ERROR_MODEL, missed, paraphrasedQuote }
    const bare = await measure(ALL_OFF, errors)
    const all = await measure(ALL_ON, errors)
    rows.push([
      `${missed} / ${paraphrasedQuote}`,
      `${precision(bare).toFixed(3)} → ${precision(all).toFixed(3)}`,
      `${recall(bare).toFixed(3)} → ${recall(all).toFixed(3)}`,
      ((recall(bare) - recall(all)) * 100).toFixed(1),
    ])
  }
  print("The same, bare judge → all checks on, with a judge that misses more contradictions:")
  print()
  print(table(["missed / paraphrased quote", "precision", "recall", "recall drop (points)"], rows))
  print()
}

/**
 * A second model that never gives a verdict: with every check on, how the flags fare when the second
 * opinion cannot be had (what a title model on the opencode route did).
 */
/** A configuration's name and what its flags were worth: flags, precision, recall, notes holding a wrong flag. */
const flagColumns = (name: string, outcome: Outcome): Array<string | number> => [
  name,
  outcome.flagged,
  ratio(outcome.trueFlags, outcome.flagged),
  ratio(outcome.trueFlags, outcome.unfaithful),
  `${outcome.wrongNotes}/${outcome.notes}`,
]

async function printSilentSecond(print: (text?: string) => void) {
  const rows: Array<Array<string | number>> = []
  const answers: Array<[string, JudgeReply]> = [
    ["answers every time (the default above)", undefined as unknown as JudgeReply],
    ["answers prose, no JSON", { raw: "The claim looks doubtful to me." }],
    ["answers HTTP 503 on every retry", { status: 503 }],
  ]
  for (const [name, answer] of answers) {
    const outcome = await measure(ALL_ON, ERROR_MODEL, answer)
    rows.push([...flagColumns(name, outcome), outcome.secondOpinions])
  }
  print("All checks on, with a second judge model that:")
  print()
  print(table(["second judge", "flags", "precision", "recall", "notes with a wrong flag", "calls to it"], rows))
  print()
}

/**
 * Claims about files the agent never read, with RFE_READ_NAMED off and on: the notes and flags reading the
 * named files gains, and the false flags it adds (claim by claim, against the same run with it off).
 */
async function printNamedFiles(print: (text?: string) => void) {
  print("### Claims about files the agent never read (RFE_READ_NAMED)")
  print()
  print(describeNamedCorpus())
  print()
  const rows: Array<Array<string | number>> = []
  const runs = new Map<string, [NamedOutcome, NamedOutcome]>()
  for (const [name, checks] of [CONFIGS[0], CONFIGS.at(-1)] as Array<[string, Checks]>) {
    const off = await measureNamed(ERROR_MODEL, checks, false)
    const on = await measureNamed(ERROR_MODEL, checks, true)
    runs.set(name, [off, on])
    for (const [setting, outcome] of [
      ["off", off],
      ["on", on],
    ] as const) {
      const fresh = setting === "on" ? outcome.falseFlagged.filter((claim) => !off.falseFlagged.includes(claim)) : []
      rows.push([
        name,
        setting,
        outcome.filesRead,
        outcome.notes,
        `${outcome.trueFlags}/${outcome.unfaithful}`,
        outcome.falseFlags,
        setting === "on" ? fresh.length : "",
        outcome.requests,
        Math.round(outcome.promptBytes / 4).toLocaleString("en"),
      ])
    }
  }
  print(
    table(
      [
        "checks",
        "RFE_READ_NAMED",
        "files read",
        "notes",
        "false claims flagged",
        "false flags",
        "new false flags",
        "judge calls",
        "≈ prompt tokens",
      ],
      rows,
    ),
  )
  print()
  return runs.get(CONFIGS.at(-1)?.[0] ?? "") as [NamedOutcome, NamedOutcome]
}

/** Runs every configuration; prints the table and returns the targets of the issue this answers. */
export async function benchNoisyJudge(
  print: (text?: string) => void,
): Promise<Array<[string, string, string, string]>> {
  const claims = NOISY_TURNS.flatMap((turn) => turn.claims)
  print("## 9. Noisy judge: how many flags are earned")
  print()
  print(
    `${NOISY_TURNS.length} labelled turns (${NOISY_TURNS.filter((t) => t.lang === "en").length} English, ` +
      `${NOISY_TURNS.filter((t) => t.lang === "de").length} German), ${claims.length} claims, ` +
      `${claims.filter((c) => c.truth === "unfaithful").length} of them unfaithful, ` +
      `${claims.filter((c) => c.needsContext).length} reference-less, ${claims.filter((c) => c.process).length} about the agent's own work.`,
  )
  print(
    `Error model: ${Object.entries(ERROR_MODEL)
      .map(([name, rate]) => `${name} ${rate}`)
      .join(", ")}.`,
  )
  print()
  const rows: Array<Array<string | number>> = []
  const results = new Map<string, Outcome>()
  for (const [name, checks] of CONFIGS) {
    const outcome = await measure(checks)
    results.set(name, outcome)
    rows.push([
      ...flagColumns(name, outcome),
      outcome.requests,
      outcome.secondOpinions,
      Math.round(outcome.promptBytes / 4).toLocaleString("en"),
    ])
  }
  print(
    table(
      [
        "checks",
        "flags",
        "precision",
        "recall",
        "notes with a wrong flag",
        "judge calls",
        "second opinions",
        "≈ prompt tokens",
      ],
      rows,
    ),
  )
  print()
  const bare = results.get(CONFIGS[0]?.[0] ?? "") as Outcome
  const all = results.get(CONFIGS.at(-1)?.[0] ?? "") as Outcome
  await printSensitivity(print)
  await printSilentSecond(print)
  const [namedOff, namedOn] = await printNamedFiles(print)
  const newFalse = namedOn.falseFlagged.filter((claim) => !namedOff.falseFlagged.includes(claim)).length
  return [
    [
      "9. noisy judge: precision, all checks on",
      "≥ 0.9 (bare ≤ 0.5)",
      `${precision(all).toFixed(3)} (bare ${precision(bare).toFixed(3)})`,
      precision(all) >= 0.9 && precision(bare) <= 0.5 ? "met" : "MISSED",
    ],
    [
      "9. noisy judge: recall drop",
      "≤ 5 points",
      `${((recall(bare) - recall(all)) * 100).toFixed(1)} points (${recall(bare).toFixed(3)} → ${recall(all).toFixed(3)})`,
      recall(bare) - recall(all) <= 0.05 ? "met" : "MISSED",
    ],
    [
      "9. noisy judge: extra calls per flagged claim",
      "≤ 1",
      `${all.secondOpinions} for ${all.firstContradictions} contradictions (+${Math.round(all.extraBytes / 4).toLocaleString("en")} tokens)`,
      all.secondOpinions <= all.firstContradictions ? "met" : "MISSED",
    ],
    [
      "9. noisy judge: files read by the check (RFE_READ_NAMED)",
      "more notes, no new false flag",
      `notes ${namedOff.notes} → ${namedOn.notes}, false claims flagged ${namedOff.trueFlags} → ${namedOn.trueFlags} of ${namedOn.unfaithful}, new false flags ${newFalse}`,
      namedOn.notes > namedOff.notes && newFalse === 0 ? "met" : "MISSED",
    ],
  ]
}

if (import.meta.main) {
  const print = (text = "") => process.stdout.write(`${text}\n`)
  const targets = await benchNoisyJudge(print)
  print(table(["target", "goal", "measured", ""], targets))
}
