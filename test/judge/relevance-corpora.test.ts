import { describe, expect, test } from "bun:test"
import { CORPUS, playTurn } from "../support/corpora/agent-turns.ts"
import { NOISY_TURNS } from "../support/corpora/noisy-turns.ts"
import { createHost } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../support/judge.ts"
import { projectFileExists, runTurn } from "../support/noisy-turn.ts"

/**
 * The relevance gate on the project's own corpora: no fabricated statement is held back, and every note is
 * the one the plugin sends with the gate off.
 */

/** A judge that knows the labels of the noisy corpus and never errs: each claim answered as labelled. */
function truthfulJudge(call: JudgeCall): JudgeReply {
  const claim = NOISY_TURNS.flatMap((turn) => turn.claims).find((candidate) => candidate.text === call.claim)
  if (!claim) return { verdict: "unverifiable" }
  const quote = claim.truth === "unfaithful" ? claim.contradiction : claim.support
  const source = call.sources.find((candidate) => quote && candidate.text.includes(quote))?.id ?? "S1"
  return { verdict: claim.truth, source, quote, reason: claim.truth === "unfaithful" ? "contradicted" : undefined }
}

/** A judge with a fixed mind per claim for the cost corpus: about one in five contradicted with a source line. */
function corpusJudge(call: JudgeCall): JudgeReply {
  const digest = [...call.claim].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7)
  const source = call.sources.find((candidate) => candidate.id.startsWith("S"))
  const line = source?.text
    .split("\n")
    .map((text) => text.replace(/^\s*\d+: /, "").trim())
    .find((text) => text.length >= 12)
  if (digest % 5 !== 0 || !line) return { verdict: "faithful", source: source?.id ?? "S1" }
  return { verdict: "unfaithful", source: source?.id, quote: line.slice(0, 60), reason: "the source says otherwise" }
}

describe("the relevance gate on the project's corpora", () => {
  async function noisyNotes(relevance: "off" | undefined) {
    return withJudge(truthfulJudge, async (judge) => {
      const host = createHost({
        env: judgeEnv(judge.url, { RFE_EVIDENCE_SCOPE: "all", RFE_RELEVANCE: relevance }),
        correct: () => undefined,
        deps: { fileExists: projectFileExists },
      })
      const notes: string[][] = []
      for (const turn of NOISY_TURNS) notes.push(await runTurn(host, turn))
      return { notes, asked: new Set(judge.requests.map((request) => request.claim)), host }
    })
  }

  test("noisy corpus: every fabricated statement is still judged or decided by the records, and every note is the same", async () => {
    const off = await noisyNotes("off")
    const on = await noisyNotes(undefined)
    expect(on.notes).toEqual(off.notes)
    const fabricated = NOISY_TURNS.flatMap((turn) => turn.claims.filter((claim) => claim.truth === "unfaithful"))
    expect(fabricated.length).toBe(49)
    // Held back by the gate: none of the 49, whether the judge or the records decided it.
    const heldBack = fabricated.filter((claim) => off.asked.has(claim.text) && !on.asked.has(claim.text))
    expect(heldBack).toEqual([])
    const noted = on.notes.flat()
    expect(fabricated.filter((claim) => noted.includes(claim.text)).length).toBeGreaterThanOrEqual(
      fabricated.filter((claim) => off.notes.flat().includes(claim.text)).length,
    )
  }, 60_000)

  test("cost corpus: every note is the same with the gate on as with it off", async () => {
    const notesOf = async (relevance: "off" | undefined) =>
      withJudge(corpusJudge, async (judge) => {
        const host = createHost({
          env: judgeEnv(judge.url, { RFE_EVIDENCE_SCOPE: "all", RFE_RELEVANCE: relevance }),
          correct: () => undefined,
        })
        const notes: string[] = []
        for (const entry of CORPUS) {
          const before = host.prompts.length
          await playTurn(host, entry)
          await host.settle()
          notes.push(host.prompts.slice(before)[0]?.text ?? "")
        }
        return { notes, requests: judge.requests.length }
      })
    const off = await notesOf("off")
    const on = await notesOf(undefined)
    expect(on.notes).toEqual(off.notes)
    expect(on.notes.filter(Boolean).length).toBeGreaterThan(0)
    expect(on.requests).toBeLessThanOrEqual(off.requests)
  }, 60_000)
})
