/**
 * The named-file section of the noisy-judge benchmark: replies that make claims about project files the agent
 * never read (test/support/corpora/named-turns.ts) go through the real plugin, over a scratch work tree holding those files,
 * with RFE_READ_NAMED off and on, against the benchmark's erring judge. It counts the notes and the true and
 * false flags each way: what reading the named files gains, and whether it adds wrong flags.
 *
 * The judge errs as the rest of the benchmark's does, with one rule added: a claim whose file is not among the
 * sources is rightly `unverifiable`, and the judge errs on it as on a faithful claim (an invented quote, or a
 * real sentence of some source that does not bear on it).
 */

import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { splitClaims } from "../src/claims/split.ts"
import type { Config } from "../src/config/config.ts"
import { fileDeps } from "../src/host/v1.ts"
import { NAMED_TURNS, type NamedClaim, type NamedTurn, PROJECT_FILES } from "../test/support/corpora/named-turns.ts"
import { createHost } from "../test/support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../test/support/judge.ts"

/** The error rates this section uses: those of the benchmark's error model that apply to it. */
export interface NamedErrors {
  inventedQuote: number
  irrelevantQuote: number
  missed: number
  paraphrasedQuote: number
}

type Checks = Config["checks"]

export interface NamedOutcome {
  notes: number
  flags: number
  trueFlags: number
  falseFlags: number
  /** The true claims flagged, so two runs can be compared claim by claim. */
  falseFlagged: string[]
  /** False claims of the corpus: what a perfect check would flag. */
  unfaithful: number
  /** Files the check read itself, over all turns. */
  filesRead: number
  requests: number
  promptBytes: number
}

/** A deterministic draw in [0, 1) for one model, claim and purpose. */
function draw(...parts: string[]): number {
  return Number.parseInt(createHash("sha256").update(parts.join("\x00")).digest("hex").slice(0, 8), 16) / 2 ** 32
}

const plain = (raw: string) => raw.replace(/`/g, "")

/** The labelled claim a request is about. */
function labelFor(call: JudgeCall): { turn: NamedTurn; claim: NamedClaim } | undefined {
  for (const turn of NAMED_TURNS) {
    const claim = turn.claims.find((item) => plain(item.raw) === call.claim)
    if (claim) return { turn, claim }
  }
  return undefined
}

/** Lines of the request's sources an erring judge might quote: real words that do not bear on the claim. */
function strayLines(call: JudgeCall, claim: NamedClaim): string[] {
  return call.sources
    .flatMap((source) => source.text.split("\n"))
    .map((line) =>
      line
        .replace(/^\s*\d+: /, "")
        .replace(/^- /, "")
        .trim(),
    )
    .filter((line) => line.length >= 20 && !line.includes(claim.evidence) && !/[<>]/.test(line))
}

function answer(call: JudgeCall, errors: NamedErrors): JudgeReply {
  const label = labelFor(call)
  if (!label) return { verdict: "unverifiable", reason: "unlabelled claim" }
  const { turn, claim } = label
  const u = draw(call.model, turn.name, claim.raw)
  const holder = call.sources.find((source) => source.text.includes(claim.evidence))
  const stray = () => {
    const pool = strayLines(call, claim)
    const quote = pool[Math.floor(draw(call.model, claim.raw, "pick") * pool.length)]
    if (quote === undefined) return { verdict: "unverifiable", reason: "nothing bears on it" }
    const source = call.sources.find((item) => item.text.includes(quote))?.id ?? "S1"
    return { verdict: "unfaithful", source, quote, reason: "the source says otherwise" }
  }
  const invented = { verdict: "unfaithful", source: "S1", quote: "the documented value differs from this one" }
  if (holder && claim.truth === "unfaithful") {
    if (u < errors.missed) return { verdict: "faithful", source: holder.id }
    if (u < errors.missed + errors.paraphrasedQuote) {
      return { verdict: "unfaithful", source: holder.id, quote: `roughly: ${claim.evidence}` }
    }
    return { verdict: "unfaithful", source: holder.id, quote: claim.evidence, reason: "the file says otherwise" }
  }
  // A true claim whose file is there, and any claim whose file is not: the judge errs as on a faithful claim.
  if (u < errors.inventedQuote) return invented
  if (u < errors.inventedQuote + errors.irrelevantQuote) return stray()
  return holder
    ? { verdict: "faithful", source: holder.id, quote: claim.evidence }
    : { verdict: "unverifiable", reason: "no source covers the file" }
}

/** The scratch work tree: the corpus's files, and a `.git` folder so its .gitignore is the repository's. */
function makeWorkTree(): string {
  const dir = mkdtempSync(join(tmpdir(), "ragfaith-named-bench-"))
  mkdirSync(join(dir, ".git"))
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** The corpus's claims are written as the splitter returns them; a drift would label the wrong sentences. */
function checkCorpus() {
  for (const turn of NAMED_TURNS) {
    const reply = turn.claims.map((claim) => claim.raw).join(" ")
    const split = splitClaims(reply, 50).claims.map((claim) => claim.text)
    const expected = turn.claims.map((claim) => plain(claim.raw))
    if (JSON.stringify(split) !== JSON.stringify(expected)) {
      throw new Error(`named corpus: turn "${turn.name}" splits into ${JSON.stringify(split)}`)
    }
    for (const claim of turn.claims) {
      if (!Object.values(PROJECT_FILES).some((text) => text.includes(claim.evidence))) {
        throw new Error(`named corpus: no file holds "${claim.evidence}"`)
      }
    }
  }
}

/** Every turn of the corpus through the plugin, with the given checks and RFE_READ_NAMED on or off. */
export async function measureNamed(errors: NamedErrors, checks: Checks, readNamed: boolean): Promise<NamedOutcome> {
  checkCorpus()
  const dir = makeWorkTree()
  try {
    return await withJudge(
      (call) => answer(call, errors),
      async (judge) => {
        const host = createHost({
          directory: dir,
          env: judgeEnv(judge.url, { RFE_READ_NAMED: readNamed ? "1" : "0", RFE_JUDGE_CONCURRENCY: "4" }),
          adjust: (config) => ({ ...config, checks }),
          deps: fileDeps,
          correct: () => undefined,
        })
        const outcome: NamedOutcome = {
          notes: 0,
          flags: 0,
          trueFlags: 0,
          falseFlags: 0,
          falseFlagged: [],
          unfaithful: 0,
          filesRead: 0,
          requests: 0,
          promptBytes: 0,
        }
        for (const turn of NAMED_TURNS) {
          const session = await host.createSession()
          const user = await host.userMessage(session, turn.question)
          if (turn.readsReadme) {
            const path = join(dir, "README.md")
            const numbered = PROJECT_FILES["README.md"]?.split("\n").map((line, i) => `${i + 1}: ${line}`)
            const output = `<path>${path}</path>\n<type>file</type>\n<content>\n${numbered?.join("\n")}\n</content>`
            await host.toolCall(session, user, "read", { filePath: path }, { output })
          }
          const before = host.prompts.length
          const asked = judge.requests.length
          await host.reply(session, user, turn.claims.map((claim) => claim.raw).join(" "))
          await host.settle()
          const note = host.prompts.slice(before)[0]?.text ?? ""
          const flagged = [...note.matchAll(/^\d+\. "(.+?)" \[/gm)].map((match) => match[1] ?? "")
          const truth = new Map(turn.claims.map((claim) => [plain(claim.raw), claim.truth]))
          const right = flagged.filter((text) => truth.get(text) === "unfaithful").length
          const refs = judge.requests
            .slice(asked)
            .flatMap((request) => request.sources.filter((source) => source.attrs.includes("read by the check")))
            .map((source) => /ref="([^":]+)/.exec(source.attrs)?.[1])
          outcome.filesRead += new Set(refs).size
          outcome.flags += flagged.length
          outcome.trueFlags += right
          outcome.falseFlags += flagged.length - right
          outcome.falseFlagged.push(...flagged.filter((text) => truth.get(text) !== "unfaithful"))
          outcome.unfaithful += turn.claims.filter((claim) => claim.truth === "unfaithful").length
          if (flagged.length) outcome.notes++
        }
        outcome.requests = judge.requests.length
        outcome.promptBytes = judge.requests.reduce((sum, request) => sum + request.raw.length, 0)
        return outcome
      },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The corpus in one line, for the section's heading. */
export function describeNamedCorpus(): string {
  const claims = NAMED_TURNS.flatMap((turn) => turn.claims)
  const models = [...new Set(NAMED_TURNS.map((turn) => turn.modelledOn))].join(", ")
  const bare = NAMED_TURNS.filter((turn) => !turn.readsReadme).length
  return (
    `${NAMED_TURNS.length} turns, ${claims.length} claims about files the agent never read ` +
    `(${claims.filter((claim) => claim.truth === "unfaithful").length} false); ${bare} turns make no tool call at all. ` +
    `The files are code written for the corpus, modelled on the documented APIs of ${models}.`
  )
}
