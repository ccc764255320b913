import { describe, expect, test } from "bun:test"
import { parseConfig } from "../../src/config/config.ts"
import { indexSources, pointsBack, reportsWork, speaksTo, termsOf } from "../../src/judge/relevance.ts"
import { FACTS } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../support/judge.ts"

/** The gate as shipped: the fake host turns it off unless a test names RFE_RELEVANCE, so these name it. */
const SHIPPED = { RFE_RELEVANCE: undefined, RFE_SECOND_OPINION: "0" }

/** A statement that shares no word with FACTS, nor does anything before it in the replies below. */
const UNRELATED = "Lisbon had lovely weather yesterday."

const shares = (source: string, claim: string, before?: string) =>
  speaksTo(indexSources([source]), { text: claim, key: claim.toLowerCase(), ...(before ? { before } : {}) })

/** A judge that read FACTS: the 7 bridges are contradicted, everything else holds, with a quote of the file. */
const factsJudge = ({ claim }: JudgeCall): JudgeReply =>
  /7 bridges/.test(claim)
    ? { verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "the file says 3" }
    : { verdict: "faithful", source: "S1", quote: "The capital of Freedonia is Fredville" }

/** One turn that reads FACTS and replies; the judge's requests, the /ragfaith report and the note. */
async function factsTurn(reply: string, env: Record<string, string | undefined>) {
  return withJudge(factsJudge, async (judge) => {
    const host = createHost({ env: judgeEnv(judge.url, env), correct: () => undefined })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia.", FACTS, reply)
    await host.settle()
    await host.command(session, "ragfaith")
    const report = host.reports.at(-1)?.parts[0]?.text ?? ""
    return { asked: judge.requests.map((request) => request.claim), report, note: host.prompts[0]?.text ?? "" }
  })
}

describe("terms: how a statement and a source are compared", () => {
  test("identifiers split at camelCase, snake_case, kebab-case and path joints, case folded", () => {
    expect([...termsOf("withRetry MAX_ATTEMPTS retry-after src/http/Client.ts HTTPServer")]).toEqual(
      expect.arrayContaining(["retry", "max", "attempt", "src", "http", "client", "ts", "serv"]),
    )
    expect(shares("export const maxRetryCount = 3", "The max retry count is set in one place.")).toBe(true)
    expect(shares("retry_delay_ms: 250", "The retry delay is in milliseconds.")).toBe(true)
  })

  test("English inflections meet: plurals, -ed, -ing", () => {
    expect(shares("It retries failed requests.", "The client retried the request.")).toBe(true)
    expect(shares("Caching is disabled.", "The cache is off.")).toBe(true)
    expect(shares("The parser handles quotes.", "Escaping works.")).toBe(false)
  })

  test("German inflections and umlauts meet: -en, -e, -n, -er, -s, ä ö ü ß", () => {
    expect(shares("Die Brücken der Stadt sind alt.", "Eine Brücke wurde 1902 gebaut.")).toBe(true)
    expect(shares("Alle Dateien werden gelesen.", "Die Datei fehlt.")).toBe(true)
    expect(shares("In den Häusern wohnen Kinder.", "Das Haus ist leer.")).toBe(true)
    expect(shares("Den Kindern gefällt es.", "Ein Kind fehlt.")).toBe(true)
    expect(shares("Die Groesse ist fest.", "Die Größe ändert sich.")).toBe(true)
    expect(shares("Die Übersicht zeigt alles.", "Die Uebersicht fehlt.")).toBe(true)
  })

  test("numbers match as numbers, and a shared word is enough however the numbers differ", () => {
    expect(shares("limit: 10_000", "The limit is 10,000.")).toBe(true)
    expect(shares("version 3.2.1", "It needs version 3.")).toBe(true)
    expect(shares("timeout 1,5 s", "Es dauert 1.5 Sekunden.")).toBe(true)
    expect(shares("retries: 3", "It makes 5 retries.")).toBe(true)
    expect(shares("port 8080", "It is 5.")).toBe(false)
    // A statement of a number and stop words only: the sentences before it give it its subject.
    expect(shares("port 8080", "It is 5.", "The server listens on a port.")).toBe(true)
  })

  test("stop words share nothing, in English and German", () => {
    expect(shares("It is what it is, and that is all there is.", "This was not about them at all.")).toBe(false)
    expect(shares("Es ist, was es ist, und das ist alles.", "Sie war nicht bei ihnen.")).toBe(false)
  })

  test("opencode's line numbers are no term", () => {
    expect(speaksTo(indexSources(["1: alpha\n2: beta\n42: gamma"]), { text: "It has 42 rows.", key: "" })).toBe(false)
  })

  test("a tool call's line speaks only to a statement about the session's own work", () => {
    const index = indexSources([], ["ran `grep -n keepComments src/parser.py` → exit 0", "edited src/parser.py"])
    const about = (text: string, before?: string) =>
      speaksTo(index, { text, key: text.toLowerCase(), ...(before ? { before } : {}) })
    // What the parser does: no command line shows it, so nothing here could contradict it.
    expect(about("The parser keeps comments by default.")).toBe(false)
    expect(about("keepComments defaults to true.", "The parser has an option for that.")).toBe(false)
    // What was done: the same lines may speak to it.
    expect(about("I searched the parser for keepComments.")).toBe(true)
    expect(about("Updated the parser so that it keeps comments.")).toBe(true)
    expect(about("`src/parser.py` was edited to keep comments.")).toBe(true)
    expect(about("The parser tests fail on the comment case.")).toBe(true)
    expect(about("Ich habe den Parser angepasst.")).toBe(true)
    // A source's own words count for every statement, as before.
    expect(
      speaksTo(indexSources(["def parse(keep_comments=True):"]), { text: "The parser keeps comments.", key: "" }),
    ).toBe(true)
  })

  test("the statements that report work, English and German", () => {
    for (const text of [
      "I ran the tests.",
      "We've also added a retry.",
      "Ran `npm test` in core/.",
      "Committed the fix as a28ab93.",
      "The lockfile was regenerated.",
      "The build fails with two errors.",
      "Wir haben die Datei gelöscht.",
      "Die Datei wurde gelöscht.",
      "Die Tests laufen durch.",
    ]) {
      expect(reportsWork(text), text).toBe(true)
    }
    for (const text of [
      "The parser keeps comments.",
      "Numpy version is 1.25.2.",
      "So __context__ is lost.",
      "It does NOT call __getattr__.",
      "Der Parser behält Kommentare.",
      "I need to see the definition of _value_NFSC_RE.",
      "We need the parser for that.",
    ]) {
      expect(reportsWork(text), text).toBe(false)
    }
  })

  test("what points back is known: pronouns, demonstratives, a German article standing alone", () => {
    expect(pointsBack("It makes 5 attempts.")).toBe(true)
    expect(pointsBack("These are cached.")).toBe(true)
    expect(pointsBack("Sie gibt null zurück.")).toBe(true)
    expect(pointsBack("Die gibt null zurück.")).toBe(true)
    expect(pointsBack("withRetry makes 5 attempts.")).toBe(false)
    expect(pointsBack("Die Funktion gibt null zurück.")).toBe(false)
  })
})

describe("the relevance gate through the hooks", () => {
  // First in its reply: no sentence before it shares a word with the sources either.
  const reply = `${UNRELATED} Fredville is the capital of Freedonia.`

  test("in normal mode a statement that shares nothing with the sources is not sent, and /ragfaith says why", async () => {
    const { asked, report } = await factsTurn(reply, SHIPPED)
    expect(asked).toEqual(["Fredville is the capital of Freedonia."])
    expect(report).toContain(
      `Not sent to the judge:\n- nothing in the sources speaks to it: "${UNRELATED.slice(0, 20)}`,
    )
  })

  test("in strict mode it is sent, as every statement is", async () => {
    const { asked } = await factsTurn(reply, { ...SHIPPED, RFE_STRICTNESS: "strict" })
    expect(asked).toContain(UNRELATED)
    expect(asked).toHaveLength(2)
  })

  test("RFE_RELEVANCE=off (or the option relevance: false) sends it", async () => {
    expect((await factsTurn(reply, { ...SHIPPED, RFE_RELEVANCE: "off" })).asked).toContain(UNRELATED)
    const options = parseConfig({ relevance: false }, {})
    expect(options.config.checks.relevance).toBe(false)
    expect(parseConfig({}, {}).config.checks.relevance).toBe(true)
  })

  test("a bad RFE_RELEVANCE warns once and keeps the gate on", () => {
    const { config, warnings } = parseConfig({}, { RFE_RELEVANCE: "sometimes" })
    expect(config.checks.relevance).toBe(true)
    expect(warnings).toEqual(['ragfaith: RFE_RELEVANCE="sometimes" is not a boolean; using true'])
  })

  test("a statement of pronouns alone is sent when the sentences before it name a source's term", async () => {
    const { asked } = await factsTurn("Freedonia sits on a river. It was founded long ago.", SHIPPED)
    expect(asked).toContain("It was founded long ago.")
  })

  test("a wrong count that shares a word with the source is sent and noted", async () => {
    const { asked, note } = await factsTurn(`${UNRELATED} Freedonia is small. It has 7 bridges.`, SHIPPED)
    expect(asked).toContain("It has 7 bridges.")
    expect(asked).not.toContain(UNRELATED)
    expect(note).toContain('"It has 7 bridges."')
  })

  test("with only commands on record, what a file holds is not sent, what was run is, and strict mode sends both", async () => {
    const reply =
      "The parser keeps comments by default. I ran the parser tests in tests/parser and they printed a warning."
    const asked = async (env: Record<string, string | undefined>) =>
      withJudge(factsJudge, async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url, env), correct: () => undefined })
        const session = await host.createSession()
        const user = await host.userMessage(session, "Does the parser keep comments?")
        const command = "pytest tests/parser -k comments"
        await host.toolCall(
          session,
          user,
          "bash",
          { command, description: "tests" },
          { output: "1 passed", metadata: { exit: 0 } },
        )
        await host.reply(session, user, reply)
        await host.settle()
        return judge.requests.map((request) => request.claim)
      })
    const normal = await asked(SHIPPED)
    expect(normal).not.toContain("The parser keeps comments by default.")
    expect(normal).toContain("I ran the parser tests in tests/parser and they printed a warning.")
    expect(await asked({ ...SHIPPED, RFE_STRICTNESS: "strict" })).toContain("The parser keeps comments by default.")
  })

  test("a German statement in another inflection than the source is sent", async () => {
    const file = { path: "/project/notiz.txt", text: "Die Brücken über die Zeppo wurden 1902 gebaut." }
    await withJudge(factsJudge, async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url, SHIPPED), correct: () => undefined })
      const session = await host.createSession()
      await host.readTurn(
        session,
        "Wann?",
        file,
        "Lissabon hatte gestern schönes Wetter. Die erste Brücke stammt aus dem Mittelalter.",
      )
      await host.settle()
      expect(judge.requests.map((request) => request.claim)).toEqual(["Die erste Brücke stammt aus dem Mittelalter."])
    })
  })

  test("/ragfaith shows the requests and tokens of the last reply and of the whole session", async () => {
    await withJudge(factsJudge, async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url, SHIPPED), correct: () => undefined })
      const session = await host.createSession()
      await host.readTurn(session, "Tell me about Freedonia.", FACTS, "Fredville is the capital of Freedonia.")
      await host.settle()
      const next = await host.userMessage(session, "And the animal?")
      await host.reply(session, next, `${UNRELATED} The red fox is the national animal of Freedonia.`)
      await host.settle()
      await host.command(session, "ragfaith")
      const report = (host.reports.at(-1)?.parts[0]?.text ?? "").replace(/\s+/g, " ")
      expect(judge.requests).toHaveLength(2)
      expect(report).toContain(
        "Cost: this reply 1 judge request, 100 tokens in and 12 out; this session 2 judge requests, 200 tokens in and 24 out.",
      )
    })
  })
})

describe("verdicts reused whatever sentences stand before a statement", () => {
  /** Two replies over the same sources: the same statement after different sentences. */
  async function twoReplies(first: string, second: string, judgeRule = factsJudge) {
    return withJudge(judgeRule, async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url, SHIPPED), correct: () => undefined })
      const session = await host.createSession()
      await host.readTurn(session, "Tell me about Freedonia.", FACTS, first)
      await host.settle()
      const next = await host.userMessage(session, "And once more?")
      await host.reply(session, next, second)
      await host.settle()
      return judge.requests.map((request) => request.claim)
    })
  }

  test("a statement judged faithful on a quote of a source is not asked again after other sentences", async () => {
    const asked = await twoReplies(
      "Freedonia is a small country. Fredville is the capital of Freedonia.",
      "Freedonia has a red fox as its animal. Fredville is the capital of Freedonia.",
    )
    expect(asked.filter((claim) => claim === "Fredville is the capital of Freedonia.")).toHaveLength(1)
  })

  test("a statement that points back is asked again when the sentences before it change", async () => {
    const asked = await twoReplies(
      "Fredville is the capital of Freedonia. It is the largest city.",
      "The red fox is the national animal of Freedonia. It is the largest city.",
    )
    expect(asked.filter((claim) => claim === "It is the largest city.")).toHaveLength(2)
  })

  test("a verdict without a quote from a source is asked again after other sentences", async () => {
    const bare = (): JudgeReply => ({ verdict: "faithful", source: "S1" })
    const asked = await twoReplies(
      "Freedonia is a small country. Fredville is the capital of Freedonia.",
      "Freedonia has a red fox as its animal. Fredville is the capital of Freedonia.",
      bare,
    )
    expect(asked.filter((claim) => claim === "Fredville is the capital of Freedonia.")).toHaveLength(2)
  })

  test("a contradiction is never reused without its context: the flag is earned anew", async () => {
    const asked = await twoReplies(
      "Freedonia is a small country. Freedonia has 7 bridges.",
      "Fredville is the capital of Freedonia. Freedonia has 7 bridges.",
    )
    expect(asked.filter((claim) => claim === "Freedonia has 7 bridges.")).toHaveLength(2)
  })
})
