/**
 * The report file (RFE_REPORT): one JSON line per judged reply, redacted, private, whole under concurrent
 * writers, never a reason to stop judging; and what `opencode run` leaves for CI at exit (GitHub annotations,
 * the job summary, the exit code of RFE_FAIL_ON).
 */

import { afterAll, describe, expect, test } from "bun:test"
import { spawn } from "node:child_process"
import { readFileSync, statSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseConfig } from "../../src/config/config.ts"
import type { Deps } from "../../src/config/effects.ts"
import { createNotifier } from "../../src/feedback/notifier.ts"
import { buildReceipt, createReceipts, escapeData, escapeProperty, type Receipt } from "../../src/feedback/receipt.ts"
import { fileDeps } from "../../src/host/v1.ts"
import { drawer } from "../support/corpora/secrets.ts"
import { bridgesJudge, FACTS, fileLines, tempDirs, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost, type HostOptions } from "../support/host.ts"
import { JUDGE_KEY, type JudgeRule, judgeEnv, withJudge } from "../support/judge.ts"

const dirs = tempDirs("ragfaith-receipt-")
afterAll(() => dirs.cleanup())

const ROOT = resolve(import.meta.dir, "../..")
const QUESTION = "How many bridges does Fredville have?"
/** The wrong reply with a closing offer, which states nothing to check. */
const REPLY = `${WRONG_REPLY} Shall I look up more about Freedonia?`

const readReceipts = (path: string): Receipt[] => fileLines(path).map((line) => JSON.parse(line) as Receipt)

/** One turn on the fake host: the agent reads FACTS and answers; the host settles. */
async function turn(rule: JudgeRule, opts: HostOptions & { report?: string } = {}, reply = REPLY) {
  return withJudge(rule, async (judge) => {
    const env = judgeEnv(judge.url, { ...(opts.report ? { RFE_REPORT: opts.report } : {}), ...opts.env })
    const host = createHost({ correct: () => undefined, ...opts, env, deps: { ...fileDeps, ...opts.deps } })
    const session = await host.createSession()
    const { replyID } = await host.readTurn(session, QUESTION, FACTS, reply)
    await host.settle()
    return { host, session, replyID, judge }
  })
}

describe("one line per judged reply", () => {
  test("the line holds every statement: how it was decided, verdict, source, quote, second opinion; then the note", async () => {
    const report = join(dirs.make(), "report.jsonl")
    const { host, session, replyID } = await turn(bridgesJudge(), { report })
    const [line, ...rest] = readReceipts(report)
    expect(rest).toEqual([])
    expect(line).toMatchObject({
      v: 1,
      mode: "serve",
      session,
      reply: replyID,
      judge: { model: "judge-main", second: "judge-fallback" },
      outcome: "noted",
      over_cap: 0,
      read_by_check: [],
    })
    expect(Date.parse(line?.time ?? "")).toBeGreaterThan(Date.now() - 60_000)
    expect(line?.statements).toEqual([
      {
        text: "Fredville is the capital city of Freedonia.",
        how: "judge",
        why: null,
        verdict: "faithful",
        flagged: false,
        source: "facts.txt:1-2",
        quote: null,
        reason: null,
        second: null,
        demoted: null,
        dispute: null,
      },
      {
        text: "It has 7 bridges.",
        how: "judge",
        why: null,
        verdict: "unfaithful",
        flagged: true,
        source: "facts.txt:1-2",
        quote: "It has 3 bridges",
        reason: "the file says 3",
        second: "agreed",
        demoted: null,
        dispute: null,
      },
      {
        text: "Shall I look up more about Freedonia?",
        how: "skipped",
        why: "a question",
        verdict: null,
        flagged: false,
        source: null,
        quote: null,
        reason: null,
        second: null,
        demoted: null,
        dispute: null,
      },
    ])
    // The note is the one the agent got, word for word, with the notice the user saw beside it.
    expect(line?.note).toEqual({ text: host.prompts[0]?.text ?? "", notice: host.prompts[0]?.marker ?? "" })
  })

  test("the file is created with mode 0600; the correction reply gets a line of its own", async () => {
    const report = join(dirs.make(), "report.jsonl")
    const { replyID } = await turn(bridgesJudge(), { report, correct: () => "It has 3 bridges, as the file says." })
    expect(statSync(report).mode & 0o777).toBe(0o600)
    const lines = readReceipts(report)
    expect(lines.map((line) => line.outcome)).toEqual(["noted", "silent"])
    expect(lines[0]?.reply).toBe(replyID)
    expect(lines[1]?.reply).not.toBe(replyID)
    expect(lines[1]?.note).toBeNull()
  })

  test("how each statement was decided: word for word, from the records, from the cache; a demoted flag says why", async () => {
    const report = join(dirs.make(), "report.jsonl")
    const cacheDir = dirs.make()
    const reply = "The capital of Freedonia is Fredville. I read facts.txt. It has 7 bridges."
    const unanchored: JudgeRule = ({ claim }) =>
      /7 bridges/.test(claim)
        ? { verdict: "unfaithful", source: "S1", quote: "It has 9 bridges", reason: "made up" }
        : { verdict: "faithful", source: "S1" }
    await turn(unanchored, { report, env: { RFE_CACHE_DIR: cacheDir } }, reply)
    await turn(unanchored, { report, env: { RFE_CACHE_DIR: cacheDir } }, reply)
    const [first, second] = readReceipts(report)
    const how = (receipt: Receipt | undefined) => receipt?.statements.map((s) => [s.how, s.verdict, s.demoted])
    expect(how(first)).toEqual([
      ["verbatim", "faithful", null],
      ["records", "faithful", null],
      ["judge", "unverifiable", "unanchored"],
    ])
    expect(how(second)?.[2]).toEqual(["cache", "unverifiable", "unanchored"])
    expect(first?.statements[1]?.source).toBe("tool calls of this session")
  })

  test("a judge that does not answer: its statements are listed as not judged, with why", async () => {
    const report = join(dirs.make(), "report.jsonl")
    await turn(() => ({ status: 401 }), { report })
    const [line] = readReceipts(report)
    expect(line?.statements.map((s) => [s.text, s.how, s.why, s.verdict])).toEqual([
      ["Fredville is the capital city of Freedonia.", "not-judged", "the judge did not answer", null],
      ["It has 7 bridges.", "not-judged", "the judge did not answer", null],
      ["Shall I look up more about Freedonia?", "skipped", "a question", null],
    ])
  })

  test("with no RFE_REPORT nothing is written anywhere", async () => {
    const writes: string[] = []
    await turn(bridgesJudge(), { deps: { appendText: async (path) => void writes.push(path) } })
    expect(writes).toEqual([])
  })
})

test("the files the check read itself (RFE_READ_NAMED) are named, as /ragfaith names them", () => {
  const report = { at: 0, model: "m", items: [], notClaims: [], overCap: 0, unjudged: 0, outcome: "silent" as const }
  const base = { sessionID: "s", replyID: "r", mode: "serve" as const, second: undefined, flagged: new Set<never>() }
  const line = buildReceipt({
    ...base,
    report: { ...report, readByCheck: ["docs/api.md"] },
    unjudged: [],
    note: undefined,
  })
  expect(line.read_by_check).toEqual(["docs/api.md"])
  expect(buildReceipt({ ...base, report, unjudged: [], note: undefined }).read_by_check).toEqual([])
})

describe("serve mode: the report and /ragfaith all tell the same", () => {
  test("every statement of the reply's line is listed by /ragfaith all with the same verdict, source and quote", async () => {
    const report = join(dirs.make(), "report.jsonl")
    const reply = `${REPLY} Its national animal is the grey wolf.`
    const rule: JudgeRule = ({ claim }) =>
      /7 bridges/.test(claim)
        ? { verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "the file says 3" }
        : /wolf/.test(claim)
          ? { verdict: "unverifiable", source: "S1", reason: "the file names no wolf" }
          : { verdict: "faithful", source: "S1", quote: "The capital of Freedonia is Fredville" }
    const { host, session } = await turn(rule, { report, mode: "serve" }, reply)
    await host.command(session, "ragfaith", "all")
    const listed = (host.reports.at(-1)?.parts[0]?.text ?? "").replace(/\s+/g, " ")
    const [line] = readReceipts(report)
    const judged = line?.statements.filter((s) => s.verdict !== null) ?? []
    expect(judged).toHaveLength(3)
    const MARK = { faithful: "✓", unfaithful: "✗", unverifiable: "?" } as const
    for (const s of judged) {
      const says = s.quote ? `, which says "${s.quote}"` : ""
      expect(listed).toContain(`${MARK[s.verdict as keyof typeof MARK]} "${s.text}" ${s.verdict}: ${s.source}${says}`)
    }
    // As many marks as judged statements, and the sentence that claims nothing, with why, in both.
    expect(listed.match(/[✓✗?] "/g)?.length).toBe(judged.length)
    const skipped = line?.statements.filter((s) => s.how === "skipped") ?? []
    expect(skipped.map((s) => s.why)).toEqual(["a question"])
    expect(listed).toContain(`- a question: "${skipped[0]?.text}"`)
  })
})

describe("privacy", () => {
  test("a secret in a source, repeated in the reply and by the judge, never reaches the report", async () => {
    const report = join(dirs.make(), "report.jsonl")
    // Drawn at run time, so the repository holds nothing that looks like a real token.
    const token = `ghp_${drawer(33)(36)}`
    const file = {
      path: "/project/deploy.txt",
      text: `Deploy with GITHUB_TOKEN=${token} from the ci user.\nIt has 3 bridges.`,
    }
    const rule: JudgeRule = ({ claim }) =>
      claim.includes("token")
        ? {
            verdict: "unfaithful",
            source: "S1",
            quote: `GITHUB_TOKEN=${token}`,
            reason: `it is ${token}, ${JUDGE_KEY}`,
          }
        : { verdict: "faithful", source: "S1" }
    await withJudge(rule, async (judge) => {
      const host = createHost({
        correct: () => undefined,
        env: judgeEnv(judge.url, { RFE_REPORT: report }),
        deps: fileDeps,
      })
      const session = await host.createSession()
      await host.readTurn(session, "Which token deploys?", file, `The deploy token is ${token} for the admin user.`)
      await host.settle()
    })
    const text = readFileSync(report, "utf8")
    expect(readReceipts(report)).toHaveLength(1)
    expect(text).not.toContain(token)
    expect(text).not.toContain(token.slice(4, 20))
    expect(text).not.toContain(JUDGE_KEY)
    expect(text).toContain("[REDACTED]")
  })
})

describe("a report file that cannot be written", () => {
  test.each([
    ["a folder", (dir: string) => dir],
    [
      "a path under a file",
      (dir: string) => {
        writeFileSync(join(dir, "f"), "x")
        return join(dir, "f", "report.jsonl")
      },
    ],
  ])("%s: one warning, and judging goes on", async (_name, pathIn) => {
    const dir = dirs.make()
    const report = pathIn(dir)
    await withJudge(bridgesJudge(), async (judge) => {
      const host = createHost({
        correct: () => undefined,
        env: judgeEnv(judge.url, { RFE_REPORT: report }),
        deps: fileDeps,
      })
      for (const ask of [QUESTION, "And how many bridges again?"]) {
        const session = await host.createSession()
        await host.readTurn(session, ask, FACTS, WRONG_REPLY)
        await host.settle()
      }
      // Both replies were judged and both drew their note.
      expect(host.prompts).toHaveLength(2)
      const warned = host.logs.filter((log) => log.message.includes("cannot write RFE_REPORT"))
      expect(warned).toHaveLength(1)
      expect(warned[0]?.level).toBe("warn")
      expect(warned[0]?.message).toContain("judging goes on")
      expect(host.toasts.filter((toast) => toast.message.includes("RFE_REPORT")).map((t) => t.message)).toEqual([
        "Cannot write RFE_REPORT; judging goes on. The opencode log says why.",
      ])
      expect(warned[0]?.message).toContain(report)
    })
  })

  test("in `opencode run` the one warning goes to stderr, where a CI log shows it", async () => {
    const dir = dirs.make()
    const { host } = await turn(bridgesJudge(), { report: dir, mode: "run" })
    await host.hooks.dispose()
    expect(host.stderr.filter((text) => text.includes("cannot write RFE_REPORT"))).toHaveLength(1)
  })
})

/** A receipt with `count` statements of about `chars` characters each, tagged by writer and number. */
function bigReceipt(writer: string, n: number, count = 40, chars = 1500): Receipt {
  const statement = (i: number) => ({
    text: `${writer}-${n}-${i} ${"x".repeat(chars)}`,
    how: "judge" as const,
    why: null,
    verdict: "faithful" as const,
    flagged: false,
    source: "facts.txt:1-2",
    quote: null,
    reason: null,
    second: null,
    demoted: null,
    dispute: null,
  })
  return {
    v: 1,
    time: new Date().toISOString(),
    mode: "serve",
    session: `ses_${writer}`,
    reply: `msg_${writer}_${n}`,
    judge: { model: "judge-main", second: null },
    outcome: "silent",
    statements: Array.from({ length: count }, (_, i) => statement(i)),
    over_cap: 0,
    read_by_check: [],
    note: null,
  }
}

/** The writers of the concurrency test: this process's own, and other processes. */
const WRITER_SCRIPT = `
import { createReceipts } from "${ROOT}/src/feedback/receipt.ts"
import { fileDeps } from "${ROOT}/src/host/v1.ts"
const [path, writer, count, startAt] = process.argv.slice(-4)
// Every writer starts at the same moment, so the processes' appends overlap.
await Bun.sleep(Math.max(0, Number(startAt) - Date.now()))
const deps = { ...fileDeps, mode: "serve", writeStderr: () => {} }
const notifier = { log() {}, toast() {} }
const config = { report: path, flagVerdicts: new Set(), failOn: new Set(), ci: {} }
const receipts = createReceipts({ config, deps, notifier })
const statement = (n, i) => ({ text: writer + "-" + n + "-" + i + " " + "x".repeat(1500), how: "judge", why: null,
  verdict: "faithful", flagged: false, source: "facts.txt:1-2", quote: null, reason: null, second: null, demoted: null,
  dispute: null })
await Promise.all(Array.from({ length: Number(count) }, (_, n) => receipts.record({ v: 1, time: new Date().toISOString(),
  mode: "serve", session: "ses_" + writer, reply: "msg_" + writer + "_" + n, judge: { model: "judge-main", second: null },
  outcome: "silent", statements: Array.from({ length: 40 }, (_, i) => statement(n, i)), over_cap: 0, read_by_check: [], note: null })))
`

const runWriter = (script: string, path: string, writer: string, count: number, startAt: number) =>
  new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [script, path, writer, String(count), String(startAt)], { stdio: "ignore" })
    child.once("exit", done)
  })

describe("several writers at once", () => {
  test("sessions and processes appending together: every line is whole and parses, none is lost", async () => {
    const dir = dirs.make()
    const path = join(dir, "report.jsonl")
    const script = join(dir, "writer.ts")
    writeFileSync(script, WRITER_SCRIPT)
    const notifier = createNotifier(parseConfig(undefined, {}).config, [], { client: {} } as unknown as Deps)
    const config = { ...parseConfig(undefined, { RFE_REPORT: path }).config }
    const deps = { ...fileDeps, mode: "serve", writeStderr: () => {} } as unknown as Deps
    // Three instances in this process (three sessions, or the plugin loaded twice), 30 lines each, all at once,
    // while four other processes write 30 lines each: about 60 kB a line.
    // All of them start at one moment, once the other processes are up.
    const startAt = Date.now() + 2_000
    const others = ["p1", "p2", "p3", "p4"].map((writer) => runWriter(script, path, writer, 30, startAt))
    await Bun.sleep(Math.max(0, startAt - Date.now()))
    const local = ["a", "b", "c"].flatMap((writer) => {
      const receipts = createReceipts({ config, deps, notifier })
      return Array.from({ length: 30 }, (_, n) => receipts.record(bigReceipt(writer, n)))
    })
    const [codes] = await Promise.all([Promise.all(others), Promise.all(local)])
    expect(codes).toEqual([0, 0, 0, 0])
    const raw = readFileSync(path, "utf8")
    expect(raw.endsWith("\n")).toBe(true)
    const lines = raw.split("\n").slice(0, -1)
    expect(lines).toHaveLength(7 * 30)
    const replies = lines.map((line) => {
      const receipt = JSON.parse(line) as Receipt
      expect(receipt.statements).toHaveLength(40)
      expect(
        receipt.statements.every(
          (s, i) => s.text.startsWith(`${receipt.session.slice(4)}-`) && s.text.includes(`-${i} `),
        ),
      ).toBe(true)
      return receipt.reply
    })
    expect(new Set(replies).size).toBe(7 * 30)
    expect(statSync(path).mode & 0o777).toBe(0o600)
  }, 30_000)
})

describe("`opencode run` at exit", () => {
  /** A run-mode turn, then opencode's dispose: what reaches stderr, the summary file and the exit code. */
  async function runTurn(env: Record<string, string>, reply = REPLY, rule: JudgeRule = bridgesJudge(), instances = 1) {
    const dir = dirs.make()
    const summary = join(dir, "summary.md")
    const report = join(dir, "report.jsonl")
    let failed = 0
    const { host } = await turn(
      rule,
      {
        report,
        mode: "run",
        instances,
        env: { GITHUB_STEP_SUMMARY: summary, ...env },
        deps: { failExit: () => void failed++ },
      },
      reply,
    )
    await host.hooks.dispose()
    return { host, stderr: host.stderr.join(""), summary: fileLines(summary).join("\n"), failed, report }
  }

  test("in GitHub Actions: each flagged statement an annotation, the job summary a table of them, exit code untouched", async () => {
    const { stderr, summary, failed } = await runTurn({ GITHUB_ACTIONS: "true" })
    expect(stderr).toContain(
      '::warning title=ragfaith%3A unfaithful statement::"It has 7 bridges." is unfaithful (facts.txt:1-2); ' +
        'the source says "It has 3 bridges"; the file says 3\n',
    )
    expect(stderr.match(/^::/gm)).toHaveLength(1)
    expect(summary).toContain("### ragfaith: 1 statement not supported by the sources")
    expect(summary).toContain("| unfaithful | It has 7 bridges. | facts.txt:1-2 | It has 3 bridges |")
    expect(summary).toContain("2 statements in 1 reply checked.")
    expect(failed).toBe(0)
  })

  test("RFE_FAIL_ON=unfaithful: exit code 1, the annotation an error, said on stderr", async () => {
    const { stderr, summary, failed } = await runTurn({ GITHUB_ACTIONS: "true", RFE_FAIL_ON: "unfaithful" })
    expect(failed).toBe(1)
    expect(stderr).toContain("::error title=ragfaith%3A unfaithful statement::")
    expect(stderr).toContain("ragfaith: 1 statement judged unfaithful (RFE_FAIL_ON): exit code 1")
    expect(summary).toContain("| ✗ unfaithful |")
  })

  test("RFE_FAIL_ON=unverifiable fails on what no source settles, and not on a contradiction alone", async () => {
    expect((await runTurn({ RFE_FAIL_ON: "unverifiable" })).failed).toBe(0)
    const open: JudgeRule = ({ claim }) =>
      /port/.test(claim)
        ? { verdict: "unverifiable", source: "S1", reason: "no port" }
        : { verdict: "faithful", source: "S1" }
    const { failed, stderr } = await runTurn({ RFE_FAIL_ON: "unverifiable" }, "Fredville has a busy port.", open)
    expect(failed).toBe(1)
    expect(stderr).toContain("ragfaith: 1 statement judged unverifiable (RFE_FAIL_ON): exit code 1")
    const both: JudgeRule = (call) => (/port/.test(call.claim) ? open(call) : bridgesJudge()(call))
    const mixed = await runTurn(
      { RFE_FAIL_ON: "unfaithful,unverifiable" },
      `${WRONG_REPLY} Fredville has a busy port.`,
      both,
    )
    expect(mixed.failed).toBe(1)
    expect(mixed.stderr).toContain(
      "ragfaith: 1 statement judged unfaithful, 1 statement judged unverifiable (RFE_FAIL_ON): exit code 1",
    )
  })

  test("a reply that holds up: the summary says so, no annotation, exit code untouched", async () => {
    const { stderr, summary, failed, report } = await runTurn(
      { GITHUB_ACTIONS: "true", RFE_FAIL_ON: "unfaithful,unverifiable" },
      "Fredville is the capital city of Freedonia. It has three bridges.",
    )
    expect(stderr).not.toContain("::")
    expect(summary).toContain("### ragfaith: no statement flagged")
    expect(summary).toContain(`Every verdict: \`${report}\`.`)
    expect(failed).toBe(0)
  })

  test("a summary file that cannot be written: one line on stderr; the annotation and the exit code still come", async () => {
    const { stderr, failed } = await runTurn({
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: dirs.make(),
      RFE_FAIL_ON: "unfaithful",
    })
    expect(stderr.match(/cannot write GITHUB_STEP_SUMMARY/g)).toHaveLength(1)
    expect(stderr).toContain("::error title=ragfaith%3A unfaithful statement::")
    expect(failed).toBe(1)
  })

  test("the plugin loaded twice: one summary, one annotation, one report line; the copy that judged nothing adds none", async () => {
    const { stderr, summary, failed, report } = await runTurn(
      { GITHUB_ACTIONS: "true", RFE_FAIL_ON: "unfaithful" },
      REPLY,
      bridgesJudge(),
      2,
    )
    expect(summary.match(/### ragfaith/g)).toHaveLength(1)
    expect(stderr.match(/^::error/gm)).toHaveLength(1)
    expect(fileLines(report)).toHaveLength(1)
    expect(failed).toBe(1)
  })

  test("outside GitHub Actions: no annotation and no summary", async () => {
    const writes: string[] = []
    const { host } = await turn(bridgesJudge(), {
      mode: "run",
      deps: { appendText: async (path) => void writes.push(path) },
    })
    await host.hooks.dispose()
    expect(host.stderr.join("")).toContain("It has 7 bridges.")
    expect(host.stderr.join("")).not.toContain("::")
    expect(writes).toEqual([])
  })

  test("serve mode never touches the exit code or the summary, whatever RFE_FAIL_ON says", async () => {
    const { failed, summary } = await (async () => {
      const dir = dirs.make()
      const summaryPath = join(dir, "summary.md")
      let count = 0
      const { host } = await turn(bridgesJudge(), {
        mode: "serve",
        env: { GITHUB_STEP_SUMMARY: summaryPath, GITHUB_ACTIONS: "true", RFE_FAIL_ON: "unfaithful" },
        deps: { failExit: () => void count++ },
      })
      await host.hooks.dispose()
      return { failed: count, summary: fileLines(summaryPath) }
    })()
    expect(failed).toBe(0)
    expect(summary).toEqual([])
  })
})

describe("workflow-command escaping", () => {
  test.each([
    ["a percent sign", "100% sure", "100%25 sure", "100%25 sure"],
    ["a line break", "one\ntwo\r\n", "one%0Atwo%0D%0A", "one%0Atwo%0D%0A"],
    ["a colon and a comma", "ragfaith: a, b", "ragfaith: a, b", "ragfaith%3A a%2C b"],
    ["an escape already there", "%0A", "%250A", "%250A"],
  ])("%s", (_name, text, data, property) => {
    expect(escapeData(text)).toBe(data)
    expect(escapeProperty(text)).toBe(property)
  })

  test("a statement with a line break and `::` stays one annotation", async () => {
    const lines: string[] = []
    const config = parseConfig(undefined, { GITHUB_ACTIONS: "true", RFE_FAIL_ON: "unfaithful" }).config
    const deps = { mode: "run", writeStderr: (text: string) => lines.push(text), failExit: () => {} } as unknown as Deps
    const receipts = createReceipts({ config, deps, notifier: { log() {}, toast() {} } as never })
    const receipt = bigReceipt("w", 0, 1, 0)
    Object.assign(receipt.statements[0] ?? {}, { text: "a\n::error::b 50%", verdict: "unfaithful", reason: "x\ny" })
    await receipts.record(receipt)
    await receipts.finish()
    const annotations = lines
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("::"))
    expect(annotations).toEqual([
      '::error title=ragfaith%3A unfaithful statement::"a ::error::b 50%25" is unfaithful (facts.txt:1-2); x%0Ay',
    ])
  })
})
