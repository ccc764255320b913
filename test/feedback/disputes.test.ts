// Disputes, both ways: the agent keeps a statement it re-checked, citing its source, and the judge upholds it;
// the user marks a flag wrong with `/ragfaith wrong [N]`, for the project, and with RFE_CACHE_DIR for good.

import { describe, expect, test } from "bun:test"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileDeps } from "../../src/host/v1.ts"
import { DISPUTES_FILE, disputeKey, statementId } from "../../src/judge/disputes.ts"
import { citationOf, joinCitations } from "../../src/turn/kept.ts"
import { BRIDGES_CONTRADICTED, FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost, type HostOptions } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../support/judge.ts"

describe("the form an agent keeps a statement in", () => {
  test.each([
    ["It has 7 bridges (source: facts.txt).", "It has 7 bridges", "facts.txt"],
    ["It has 7 bridges [Source: https://example.com/a?b=1].", "It has 7 bridges", "https://example.com/a?b=1"],
    ["Es hat 7 Brücken (Quelle: notes/fakten.md).", "Es hat 7 Brücken", "notes/fakten.md"],
    ["It has 7 bridges (sources: facts.txt:1-2)", "It has 7 bridges", "facts.txt:1-2"],
  ])("%s", (text, statement, source) => {
    expect(citationOf(text)).toEqual({ statement, source })
  })

  test("no citation, or a bracket that names no source: nothing kept", () => {
    expect(citationOf("It has 7 bridges.")).toBeUndefined()
    expect(citationOf("It has 7 bridges (see the map).")).toBeUndefined()
    expect(citationOf("(source: facts.txt)")).toBeUndefined()
  })

  test("a citation after the statement's full stop joins the statement", () => {
    expect(joinCitations("It has 7 bridges. (source: facts.txt) It is old.")).toBe(
      "It has 7 bridges (source: facts.txt). It is old.",
    )
  })
})

/** A judge that is wrong about the 7 bridges, until it sees the statement kept with its source. */
const wrongJudge =
  (withSource: JudgeReply = { verdict: "faithful", source: "S1", reason: "the cited file says so" }) =>
  ({ claim }: JudgeCall): JudgeReply =>
    /7 bridges/.test(claim)
      ? /\(source:/.test(claim)
        ? withSource
        : BRIDGES_CONTRADICTED
      : { verdict: "faithful", source: "S1" }

async function session(rule: (call: JudgeCall) => JudgeReply, opts: HostOptions, run: (h: Hosted) => Promise<void>) {
  await withJudge(rule, async (judge) => {
    const host = createHost({ correct: () => undefined, ...opts, env: judgeEnv(judge.url, opts.env) })
    const id = await host.createSession()
    const report = async (args = "") => {
      await host.command(id, "ragfaith", args)
      return (host.reports.at(-1)?.parts[0]?.text ?? "").replace(/\n\s*/g, " ")
    }
    await run({ host, id, report, calls: judge.requests })
  })
}
interface Hosted {
  host: ReturnType<typeof createHost>
  id: string
  report: (args?: string) => Promise<string>
  calls: JudgeCall[]
}

describe("the agent disputes a flag", () => {
  test("the note says how to keep a right statement: written again, with its source in brackets", async () => {
    await session(wrongJudge(), {}, async ({ host, id }) => {
      await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
      await host.settle()
      expect(host.prompts[0]?.text).toContain("If re-checking shows a statement is right as it stands, keep it")
      expect(host.prompts[0]?.text).toMatch(/\(source: [^)]+\)/)
    })
  })

  test("kept with its source and upheld: no second note, reported as disputed and upheld, never flagged again", async () => {
    const receipts = join(mkdtempSync(join(tmpdir(), "ragfaith-disputes-")), "report.jsonl")
    await session(
      wrongJudge(),
      { correct: () => "It has 7 bridges. (source: facts.txt)", env: { RFE_REPORT: receipts }, deps: fileDeps },
      async ({ host, id, report, calls }) => {
        await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
        await host.settle()
        expect(host.prompts).toHaveLength(1)
        // the verification round judged the statement with the source the agent named
        expect(calls.some((call) => call.claim === "It has 7 bridges (source: facts.txt).")).toBe(true)
        const text = await report()
        expect(text).toContain("Disputed by the agent, citing facts.txt, and upheld.")
        expect(text).toContain("1 dispute by the agent upheld")
        // the report file says so too, on the correction's line
        const lines = readFileSync(receipts, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line))
        const disputes = lines.flatMap((line) =>
          line.statements.map((statement: { dispute: unknown }) => statement.dispute),
        )
        expect(disputes).toContain("upheld")
        // a later turn that says it again, with no source: not flagged in this session
        await host.reply(id, await host.userMessage(id, "And again?"), "It has 7 bridges.")
        await host.settle()
        expect(host.prompts).toHaveLength(1)
      },
    )
  })

  test("kept with its source but the judge still finds it wrong: rejected, and a second note", async () => {
    await session(
      wrongJudge(BRIDGES_CONTRADICTED),
      { correct: (_, round) => (round === 1 ? "It has 7 bridges (source: facts.txt)." : "It has 3 bridges.") },
      async ({ host, id, report }) => {
        await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
        await host.settle()
        expect(host.prompts).toHaveLength(2)
        const text = await report()
        expect(text).toContain("Disputed by the agent, citing facts.txt; the judge still finds it wrong.")
        expect(text).toContain("1 dispute by the agent rejected")
        expect(text).not.toContain("upheld")
      },
    )
  })
})

describe("/ragfaith wrong", () => {
  test("with nothing flagged it says so, and marks nothing", async () => {
    await session(
      () => ({ verdict: "faithful", source: "S1" }),
      {},
      async ({ host, id, report }) => {
        await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
        await host.settle()
        expect(await report("wrong")).toBe(
          "Automatic check: nothing is flagged in this session, so there is nothing to mark wrong.",
        )
        expect(host.plugin.sessions.get(id)?.disputes.marked).toBe(0)
      },
    )
  })

  test("marks the flag of the last note wrong: not flagged again in the project, counted in the report", async () => {
    await session(wrongJudge(), {}, async ({ host, id, report }) => {
      await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
      await host.settle()
      const answer = await report("wrong")
      expect(answer).toContain('marked wrong: "It has 7 bridges."')
      expect(answer).toContain("while opencode runs (RFE_CACHE_DIR keeps it longer)")
      const text = await report()
      expect(text).toContain("You marked it wrong (/ragfaith wrong), so it is not flagged.")
      expect(text).toContain("1 flag marked wrong by you")
      // another session of the same project: the statement is judged, and not flagged
      const other = await host.createSession()
      await host.readTurn(other, "How many bridges?", FACTS, WRONG_REPLY)
      await host.settle()
      expect(host.prompts).toHaveLength(1)
      await host.command(other, "ragfaith")
      const otherReport = (host.reports.at(-1)?.parts[0]?.text ?? "").replace(/\n\s*/g, " ")
      expect(otherReport).toContain("What is marked ✗ you marked wrong before, so it drew no note.")
    })
  })

  test("N picks the Nth flag as the report lists them; a number out of range says how many there are", async () => {
    const rule = ({ claim }: JudgeCall): JudgeReply =>
      /7 bridges/.test(claim) ? BRIDGES_CONTRADICTED : { verdict: "unverifiable", reason: "not said" }
    await session(rule, {}, async ({ host, id, report }) => {
      await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
      await host.settle()
      expect(await report("wrong 3")).toBe(
        "Automatic check: the last report lists 2 flags; /ragfaith wrong 1 to 2 marks one wrong.",
      )
      expect(await report("wrong 2")).toContain('marked wrong: "Fredville is the capital city of Freedonia."')
      expect(host.plugin.sessions.get(id)?.disputes.marked).toBe(1)
    })
  })

  test("with RFE_CACHE_DIR the mark lasts across restarts, for this project only; the file holds no text", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rfe-disputes-"))
    try {
      const env = { RFE_CACHE_DIR: dir }
      await session(wrongJudge(), { env, deps: fileDeps }, async ({ host, id, report }) => {
        await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
        await host.settle()
        expect(await report("wrong 1")).toContain("It is not flagged again in this project.")
      })
      const file = readFileSync(join(dir, DISPUTES_FILE), "utf8")
      expect(file).not.toContain("bridges")
      expect(file).toContain(disputeKey("/project", statementId("it has 7 bridges")))
      // a new process, the same project: no note
      await session(wrongJudge(), { env, deps: fileDeps }, async ({ host, id }) => {
        await host.readTurn(id, "How many bridges?", FACTS, WRONG_REPLY)
        await host.settle()
        expect(host.prompts).toHaveLength(0)
      })
      // another project: its flags are its own
      await session(wrongJudge(), { env, deps: fileDeps, directory: "/elsewhere" }, async ({ host, id }) => {
        await host.readTurn(id, "How many bridges?", { ...FACTS, path: "/elsewhere/facts.txt" }, WRONG_REPLY)
        await host.settle()
        expect(host.prompts).toHaveLength(1)
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
