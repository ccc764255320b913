// Live: the report file (RFE_REPORT) inside the real opencode 1.18.33. `opencode run` as a CI job runs it, with
// GitHub's variables set: the report, the job summary, the annotations and the exit code the README promises;
// and `opencode serve`, where each reply's line tells what `/ragfaith all` lists for it.
// Skip with RFE_SKIP_LIVE=1.

import { afterAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import type { Receipt } from "../../src/feedback/receipt.ts"
import { SURVEY_NOTES } from "../support/fixtures.ts"
import { type JudgeRule, judgeEnv } from "../support/judge.ts"
import {
  type AgentScript,
  cleanupAll,
  digest,
  type Endpoint,
  makeScratch,
  runCli,
  type Scratch,
  sessionIdOf,
  startEndpoint,
  startOpencode,
  writeProject,
} from "./harness.ts"

const SKIP = process.env.RFE_SKIP_LIVE === "1"
const TIMEOUT = 150_000

const BAD_CLAIM = "Seven bridges span the Zeppo river in Freedonia."
const BAD_REPLY = `Marxburg serves as the capital city of Freedonia. ${BAD_CLAIM}`
const FIXED_REPLY = "Three bridges span the Zeppo river in Freedonia."
const PROMPT = "Read facts.txt and tell me about Freedonia"
const SOURCE_QUOTE = "Freedonia has 3 bridges over the river Zeppo."

/** The README's one-line check on the report: exit 1 when any statement was judged unfaithful. */
const JQ_CHECK = `jq -e -s '[.[].statements[] | select(.verdict == "unfaithful")] | length == 0' ragfaith.jsonl`

const readThenReply =
  (reply: string): AgentScript =>
  (c) => {
    if (c.isNote) return { text: FIXED_REPLY }
    if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "facts.txt" } }] }
    return { text: reply }
  }

// Cites the captured file, not the tool-call log "P".
const cite = (sources: Array<{ id: string; text: string }>) => sources.find((s) => s.id !== "P")?.id ?? "S1"

const factJudge: JudgeRule = (ctx) =>
  /seven/i.test(ctx.claim)
    ? { verdict: "unfaithful", source: cite(ctx.sources), quote: SOURCE_QUOTE, reason: "the source says 3 bridges" }
    : { verdict: "faithful", source: cite(ctx.sources), reason: "stated in the source" }

const receiptsIn = (path: string): Receipt[] =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Receipt)
    : []

afterAll(async () => {
  await cleanupAll()
})

/** What a failure shows: the endpoint's requests and the run's stderr. */
const explain = (error: unknown, ep: Endpoint, stderr: string) => {
  if (error instanceof Error) {
    error.message += `\n--- endpoint requests ---\n${digest(ep.requests).join("\n")}\n--- stderr ---\n${stderr.slice(-4000)}`
  }
  return error
}

describe.skipIf(SKIP)("live: the report in `opencode run`, as a CI job runs it", () => {
  /** One `opencode run` in a fresh project with GitHub's variables set; the report and summary in the project. */
  const ciRun = async (run: (scratch: Scratch, ep: Endpoint) => Promise<void>) => {
    const ep = startEndpoint({ agent: readThenReply(BAD_REPLY), judge: factJudge })
    const scratch = makeScratch()
    try {
      writeProject(scratch, { endpoint: ep, files: { "facts.txt": SURVEY_NOTES }, plugin: { mode: "copy" } })
      await run(scratch, ep)
    } finally {
      await ep.stop()
      if (process.env.RFE_LIVE_KEEP !== "1") rmSync(scratch.root, { recursive: true, force: true })
    }
  }
  const ciEnv = (scratch: Scratch, ep: Endpoint, extra: Record<string, string> = {}) => ({
    ...judgeEnv(ep.judgeBaseURL),
    RFE_REPORT: join(scratch.project, "ragfaith.jsonl"),
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: join(scratch.root, "step-summary.md"),
    ...extra,
  })
  const opencodeRun = (scratch: Scratch, env: Record<string, string>) =>
    runCli(scratch, ["run", "--format", "json", "--model", "mock/scripted", ...PROMPT.split(" ")], env, 90_000)

  test(
    "RFE_FAIL_ON=unfaithful: exit 1; the report holds the wrong statement with its source and quote; summary and annotation written",
    () =>
      ciRun(async (scratch, ep) => {
        const env = ciEnv(scratch, ep, { RFE_FAIL_ON: "unfaithful" })
        const res = await opencodeRun(scratch, env)
        try {
          expect(res.code).toBe(1)
          const [line, ...more] = receiptsIn(env.RFE_REPORT)
          expect(more).toEqual([])
          expect(line?.v).toBe(1)
          expect(line?.mode).toBe("run")
          expect(line?.session).toBe(sessionIdOf(res.stdout) ?? "")
          expect(line?.outcome).toBe("reported")
          expect(line?.judge).toEqual({ model: "judge-main", second: "judge-fallback" })
          const wrong = line?.statements.find((s) => s.text === BAD_CLAIM)
          expect(wrong).toMatchObject({
            how: "judge",
            verdict: "unfaithful",
            flagged: true,
            quote: SOURCE_QUOTE,
            second: "agreed",
            dispute: null,
          })
          expect(wrong?.source).toStartWith("facts.txt")
          expect(line?.statements.find((s) => s.text !== BAD_CLAIM)?.verdict).toBe("faithful")
          expect(statSync(env.RFE_REPORT).mode & 0o777).toBe(0o600)
          // The job summary, appended at exit.
          const summary = readFileSync(env.GITHUB_STEP_SUMMARY, "utf8")
          expect(summary).toContain("### ragfaith: 1 statement not supported by the sources")
          expect(summary).toContain(`| ✗ unfaithful | ${BAD_CLAIM} | ${wrong?.source} | ${SOURCE_QUOTE} |`)
          // The annotation GitHub reads from the step's output, and why the exit code is 1.
          expect(res.stderr).toContain(
            `::error title=ragfaith%3A unfaithful statement::"${BAD_CLAIM}" is unfaithful (${wrong?.source}); ` +
              `the source says "${SOURCE_QUOTE}"`,
          )
          expect(res.stderr).toContain("ragfaith: 1 statement judged unfaithful (RFE_FAIL_ON): exit code 1")
          // The README's shell check on the report agrees.
          const check = spawnSync("sh", ["-c", JQ_CHECK], { cwd: scratch.project, encoding: "utf8" })
          expect(check.status).toBe(1)
        } catch (error) {
          throw explain(error, ep, res.stderr)
        }
      }),
    TIMEOUT,
  )

  test(
    "without RFE_FAIL_ON: exit 0 and the annotation a warning; the README's shell check fails the step instead",
    () =>
      ciRun(async (scratch, ep) => {
        const env = ciEnv(scratch, ep)
        const res = await opencodeRun(scratch, env)
        try {
          expect(res.code).toBe(0)
          expect(res.stderr).toContain(`::warning title=ragfaith%3A unfaithful statement::"${BAD_CLAIM}"`)
          expect(receiptsIn(env.RFE_REPORT)).toHaveLength(1)
          expect(spawnSync("sh", ["-c", JQ_CHECK], { cwd: scratch.project }).status).toBe(1)
        } catch (error) {
          throw explain(error, ep, res.stderr)
        }
      }),
    TIMEOUT,
  )

  test(
    "a faithful run with RFE_FAIL_ON=unfaithful: exit 0, the summary says nothing was flagged, the shell check passes",
    () =>
      ciRun(async (scratch, ep) => {
        ep.agent = readThenReply("Marxburg serves as the capital city of Freedonia.")
        const env = ciEnv(scratch, ep, { RFE_FAIL_ON: "unfaithful" })
        const res = await opencodeRun(scratch, env)
        try {
          expect(res.code).toBe(0)
          expect(res.stderr).not.toContain("::")
          expect(receiptsIn(env.RFE_REPORT)[0]?.statements.map((s) => s.verdict)).toEqual(["faithful"])
          expect(spawnSync("sh", ["-c", JQ_CHECK], { cwd: scratch.project }).status).toBe(0)
          expect(readFileSync(env.GITHUB_STEP_SUMMARY, "utf8")).toContain("### ragfaith: no statement flagged")
        } catch (error) {
          throw explain(error, ep, res.stderr)
        }
      }),
    TIMEOUT,
  )
})

describe.skipIf(SKIP)("live: the report in `opencode serve`", () => {
  test(
    "each reply's line tells what `/ragfaith all` lists for it: the flagged reply and its correction",
    async () => {
      const ep = startEndpoint({ agent: readThenReply(BAD_REPLY), judge: factJudge })
      const scratch = makeScratch()
      const report = join(scratch.root, "ragfaith.jsonl")
      const oc = await startOpencode({
        endpoint: ep,
        scratch,
        files: { "facts.txt": SURVEY_NOTES },
        plugin: { mode: "copy" },
        env: { ...judgeEnv(ep.judgeBaseURL), RFE_REPORT: report },
      })
      try {
        const session = await oc.createSession()
        expect((await oc.prompt(session.id, PROMPT)).status).toBe(200)
        await oc.waitQuiet({ quietMs: 2000 })
        await oc.waitFor(() => receiptsIn(report).length >= 2, 30_000, "two report lines")
        await oc.command(session.id, "ragfaith", "all")
        await oc.waitQuiet({ quietMs: 1500 })
        const messages = await oc.messages(session.id)
        const listed = (messages.at(-1)?.parts.find((p) => p.ignored === true)?.text ?? "").replace(/\s+/g, " ")
        const [flagged, corrected, ...more] = receiptsIn(report)
        expect(more).toEqual([])
        // The lines name the replies as opencode stored them: the wrong one, then the correction.
        const replies = messages.filter((m) => m.info.role === "assistant" && m.parts.some((p) => p.type === "text"))
        expect([flagged?.reply, corrected?.reply]).toEqual(replies.map((m) => m.info.id))
        expect(flagged?.outcome).toBe("noted")
        expect(flagged?.note?.text).toContain(BAD_CLAIM)
        expect(corrected?.note).toBeNull()
        const [first = "", second = ""] = listed.split("Automatic check: the reply after it")
        const MARK = { faithful: "✓", unfaithful: "✗", unverifiable: "?" } as const
        for (const [line, section] of [
          [flagged, first],
          [corrected, second],
        ] as const) {
          const judged = line?.statements.filter((s) => s.verdict !== null) ?? []
          expect(judged.length).toBeGreaterThan(0)
          expect(section.match(/[✓✗?] "/g)?.length).toBe(judged.length)
          for (const s of judged) {
            const says = s.quote ? `, which says "${s.quote}"` : ""
            expect(section).toContain(
              `${MARK[s.verdict as keyof typeof MARK]} "${s.text}" ${s.verdict}: ${s.source}${says}`,
            )
          }
        }
      } catch (error) {
        throw explain(
          error,
          ep,
          oc
            .logs()
            .split("\n")
            .filter((l) => l.includes("ragfaith"))
            .join("\n"),
        )
      } finally {
        await oc.stop()
        await ep.stop()
      }
    },
    TIMEOUT,
  )
})
