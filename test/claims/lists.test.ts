/**
 * A list under a lead-in that states an action is one claim per item, carrying the lead-in's verb; a lead-in
 * that is itself a claim stays one; lead-ins that only name the block after them, offers that wait for the user
 * and advice cost no request, English and German; every fabricated statement is still judged.
 */

import { describe, expect, test } from "bun:test"
import { notAClaim } from "../../src/claims/checkable.ts"
import { splitClaims } from "../../src/claims/split.ts"
import { LABELLED_REPLIES } from "../support/corpora/nonclaims.ts"
import { FACTS } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { GATE_OFF, judgeEnv, withJudge } from "../support/judge.ts"

const raw = (reply: string) => splitClaims(reply, 50).claims.map((claim) => claim.raw ?? claim.text)

describe("a list under an action lead-in", () => {
  test.each([
    ["Updated files:", ["Updated `src/a.ts`", "Updated `src/b.ts`"]],
    ["Files changed:", ["Changed `src/a.ts`", "Changed `src/b.ts`"]],
    ["I updated these files:", ["Updated `src/a.ts`", "Updated `src/b.ts`"]],
    ["Files I reviewed:", ["Reviewed `src/a.ts`", "Reviewed `src/b.ts`"]],
    ["Geänderte Dateien:", ["Ich habe `src/a.ts` geändert", "Ich habe `src/b.ts` geändert"]],
    ["Ich habe folgende Dateien angepasst:", ["Ich habe `src/a.ts` angepasst", "Ich habe `src/b.ts` angepasst"]],
  ])("%p + items", (lead, expected) => {
    expect(raw(`${lead}\n\n- \`src/a.ts\`\n- \`src/b.ts\``)).toEqual(expected)
  })

  test("an item that says more keeps its words; an item that is a sentence is left alone", () => {
    expect(raw("Updated files:\n- `src/b.ts`: reads the port now\n- The docs mention the new flag.")).toEqual([
      "Updated `src/b.ts`: reads the port now",
      "The docs mention the new flag.",
    ])
  })

  test("a list after a paragraph ends the carrying", () => {
    expect(raw("Updated files:\n- `src/a.ts`\n\nThe rest stayed as it was.\n\n- `src/c.ts` is untouched.")).toEqual([
      "Updated `src/a.ts`",
      "The rest stayed as it was.",
      "`src/c.ts` is untouched.",
    ])
  })

  test("a lead-in that is itself a claim stays a claim, and its items are not rewritten", () => {
    const { claims, notClaims } = splitClaims("I refreshed the lockfile:\n\n- `package-lock.json`\n- `bun.lock`", 50)
    expect(claims.map((claim) => claim.text)).toEqual(["I refreshed the lockfile:"])
    expect(notClaims.map((entry) => entry.why)).toEqual(["too short", "too short"])
  })

  test("the records decide each item: a file never changed is flagged with no judge call", async () => {
    await withJudge(
      () => ({ verdict: "faithful", source: "S1" }),
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined, directory: "/w" })
        const id = await host.createSession()
        const userID = await host.userMessage(id, "Make the port configurable")
        await host.toolCall(id, userID, "read", { filePath: "/w/src/a.ts" }, { output: "1: x" })
        await host.toolCall(id, userID, "read", { filePath: "/w/src/b.ts" }, { output: "1: y" })
        const args = { filePath: "/w/src/a.ts", oldString: "x", newString: "z" }
        await host.toolCall(id, userID, "edit", args, { output: "Edit applied successfully." })
        await host.reply(id, userID, "Updated files:\n\n- `src/a.ts`\n- `src/b.ts`")
        await host.settle()
        expect(judge.requests).toHaveLength(0)
        expect(host.prompts).toHaveLength(1)
        expect(host.prompts[0]?.text).toContain("Updated src/b.ts")
        expect(host.prompts[0]?.text).not.toContain("Updated src/a.ts")
      },
    )
  })
})

describe("lead-ins, offers and advice that claim nothing", () => {
  test.each([
    ["The fix is a one-liner:", "a lead-in"],
    ["The relevant change looks like this:", "a lead-in"],
    ["The timings before and after:", "a lead-in"],
    ["My plan for the rest looks like this:", "a lead-in"],
    ["Die Latenzen im Überblick:", "a lead-in"],
    ["Die neue Konfiguration sieht so aus:", "a lead-in"],
    ["Die Ursache lässt sich wie folgt zusammenfassen:", "a lead-in"],
    // a short heading with a bracketed aside, and one that opens with "what"
    ["Validation (run in a terminal, as you asked):", "a lead-in"],
    ["Display names (derived, but you can override them):", "a lead-in"],
    ["Prüfung (im Terminal, wie gewünscht):", "a lead-in"],
    ["What this now covers for the other packages:", "a lead-in"],
    ["Was sich für die Nutzer ändert:", "a lead-in"],
    // where what follows comes from, with no clause of its own; a plain "is" or "are" before the block
    ["Based on the benchmark results:", "a lead-in"],
    ["Looking at the release notes:", "a lead-in"],
    ["In the browser console on the settings page:", "a lead-in"],
    ["Key decisions to take before the release:", "a lead-in"],
    ["Laut der Dokumentation des Treibers:", "a lead-in"],
    ["The immediate next steps are:", "a lead-in"],
    ["So the actual difference between the runs is:", "a lead-in"],
    ["Die nächsten Schritte sind:", "a lead-in"],
    // what the agent means to do next
    ["I need to check the remaining handlers and the library's types.", "an offer or advice"],
    ["Now let me summarise what changed in the parser.", "an offer or advice"],
    ["I'll sweep the code base for the old helper first.", "an offer or advice"],
    ["We should look at the retry path next.", "an offer or advice"],
    ["Ich muss noch die Migration der Tabellen prüfen.", "an offer or advice"],
    ["Wir werden den Cache im nächsten Schritt umbauen.", "an offer or advice"],
    ["If yes, I can walk you through adding the credits.", "an offer or advice"],
    ["If not, I'll set up the virtual card first.", "an offer or advice"],
    ["Falls ja, kann ich die Schritte einzeln erklären.", "an offer or advice"],
    ["If you'd rather keep it, we could move it behind a flag.", "an offer or advice"],
    ["I can loosen the tolerance if you agree.", "an offer or advice"],
    ["Alternatively, we could key the cache by user instead.", "an offer or advice"],
    ["Wenn du magst, kann ich den Kaltstart messen.", "an offer or advice"],
    ["Falls gewünscht, ergänze ich noch einen Benchmark.", "an offer or advice"],
    ["Alternativ könnten wir das Modul aufteilen.", "an offer or advice"],
  ])("%p is %s", (sentence, why) => {
    expect(notAClaim(sentence, true)).toBe(why as ReturnType<typeof notAClaim>)
  })

  test.each([
    ["I refreshed the lockfile:"],
    ["The root cause is a race in the pool:"],
    ["The config has three options:"],
    ["If you'd rather keep it small, we could drop it to 4, which the driver docs recommend."],
    ["Ich habe die Tests angepasst:"],
    // an aside leaves a report of work a claim, and a count or a path in it still says something
    ["Fixed the parser (it dropped the last line):"],
    ["Validation (all 3 suites):"],
    ["Config (see src/config.ts):"],
    // a clause of its own after a comma, a verb other than "is", a plan that tells what is
    ["Based on the logs, the race is in the pool:"],
    ["The failing request sends the wrong header:"],
    ["I should also note that the cache is cold after a deploy."],
    ["I need to report what I found: the button sits inside the tab list."],
    ["I'll note the config has three options."],
    ["Ich muss erwähnen, dass der Cache nach dem Deploy leer ist."],
    // inside a paragraph a colon sentence introduces nothing
  ])("%p stays a claim", (sentence) => {
    expect(notAClaim(sentence, true)).toBeUndefined()
  })

  test("the labelled replies: no request to a labelled non-claim, every fabricated sentence judged and noted", async () => {
    const fabricated = new Set(LABELLED_REPLIES.flatMap((entry) => entry.fabricated))
    const plain = (text: string) => text.replace(/`/g, "")
    await withJudge(
      ({ claim }) =>
        fabricated.has(claim)
          ? { verdict: "unfaithful", source: "S1", quote: "Freedonia's national animal" }
          : { verdict: "faithful", source: "S1" },
      async (judge) => {
        let wasted = 0
        for (const entry of LABELLED_REPLIES) {
          const before = judge.requests.length
          const host = createHost({
            env: judgeEnv(judge.url, { ...GATE_OFF, RFE_SECOND_OPINION: "0" }),
            correct: () => undefined,
          })
          const id = await host.createSession()
          await host.readTurn(id, "What did you find?", FACTS, entry.reply)
          await host.settle()
          const asked = judge.requests.slice(before).map((request) => plain(request.claim))
          wasted += asked.filter((claim) => entry.nonClaims.map(plain).includes(claim)).length
          for (const sentence of entry.fabricated) expect(asked).toContain(plain(sentence))
          for (const sentence of entry.fabricated) expect(host.prompts[0]?.text ?? "").toContain(plain(sentence))
        }
        expect(wasted).toBe(0)
      },
    )
  })
})
