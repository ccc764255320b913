/**
 * Public coding-agent trajectories replayed as opencode sessions: which claims the tool records flag.
 *
 *   bun bench/trajectories.ts /path/to/mirror [--limit=N] [--verbose] [--confirmed]
 *   RFE_TRAJECTORY_REPO=/path/to/mirror bun bench/trajectories.ts
 *
 * The mirror is a bare git copy (or a checkout) of a repository holding mini-swe-agent trajectories
 * (`*.traj.json`, one per SWE-bench task: a system prompt, the task, then assistant messages of a THOUGHT and
 * one bash block, each answered by a user message with `<returncode>` and the output). The one used for the
 * figures in docs/claims.md is gruckion/mini-swe-agent, whose `swebench_results/20251118_gemini-3-pro-74pct`
 * holds the 500 SWE-bench Verified runs of mini-swe-agent with Gemini 3 Pro. Nothing of it is copied here.
 *
 * Each trajectory becomes one session on the test suite's fake host, in the task's directory (/testbed):
 * the task is the first user message; then, step by step, the command the agent issued runs as a `bash` tool
 * call with its exit code and output, and the agent's next THOUGHT is the reply that is judged, as if the agent
 * had written it at the end of a turn. The judge always answers faithful, so every flag is the records'.
 * The script lists each distinct flagged statement with the record it was flagged against and where it came
 * from; whether a flag is right is read by hand.
 */

import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { createHost } from "../test/support/host.ts"
import { judgeEnv, withJudge } from "../test/support/judge.ts"

const DIRECTORY = "/testbed"
const TASK_CHARS = 2000
const OUTPUT_CHARS = 4000

interface Step {
  thought: string
  command: string | undefined
  exit: number | undefined
  output: string
}

export interface Trajectory {
  name: string
  task: string
  steps: Step[]
}

/** The one command of a step: mini-swe-agent asks for exactly one bash block; other fences are prose. */
const BASH_BLOCK_RE = /```(?:bash|sh)\n([\s\S]*?)\n```/
const RETURN_CODE_RE = /<returncode>(-?\d+)<\/returncode>/

type Message = { role?: string; content?: unknown }

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n")
      : ""

/** A mini-swe-agent trajectory as steps: the THOUGHT and command of each assistant message, and their result. */
export function readTrajectory(name: string, json: string): Trajectory | undefined {
  let messages: Message[]
  try {
    messages = JSON.parse(json).messages ?? []
  } catch {
    // A file the mirror lacks (4 MiB and more) or that was cut: skipped, and counted by the caller.
    return undefined
  }
  const task = textOf(messages.find((message) => message.role === "user")?.content)
  const steps: Step[] = []
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]
    if (message?.role !== "assistant") continue
    const text = textOf(message.content)
    const block = BASH_BLOCK_RE.exec(text)
    const thought = (block ? text.slice(0, block.index) : text).replace(/^\s*THOUGHT:\s*/, "").trim()
    const answer = messages[i + 1]?.role === "user" ? textOf(messages[i + 1]?.content) : ""
    const code = RETURN_CODE_RE.exec(answer)?.[1]
    steps.push({
      thought,
      command: block?.[1],
      exit: code === undefined ? undefined : Number(code),
      output: answer.replace(RETURN_CODE_RE, "").trim().slice(0, OUTPUT_CHARS),
    })
  }
  return steps.length ? { name, task: task.slice(0, TASK_CHARS), steps } : undefined
}

/** The trajectory files of a bare git mirror or a checkout, sorted by path. */
function listTrajectories(repo: string): Array<{ name: string; read: () => string }> {
  if (existsSync(join(repo, "HEAD")) && !existsSync(join(repo, ".git"))) {
    const paths = execFileSync("git", ["--git-dir", repo, "ls-tree", "-r", "--name-only", "HEAD"], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    })
      .split("\n")
      .filter((path) => path.endsWith(".traj.json") && !path.includes("test_data"))
      .sort()
    return paths.map((path) => ({
      name: path.split("/").at(-1)?.replace(".traj.json", "") ?? path,
      read: () =>
        execFileSync("git", ["--git-dir", repo, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 1 << 28 }),
    }))
  }
  const found: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) walk(path)
      else if (entry.endsWith(".traj.json")) found.push(path)
    }
  }
  walk(repo)
  return found.sort().map((path) => ({
    name: relative(repo, path).split("/").at(-1)?.replace(".traj.json", "") ?? path,
    read: () => readFileSync(path, "utf8"),
  }))
}

export interface Flag {
  trajectory: string
  step: number
  claim: string
  quote: string | undefined
  verdict: string
}

/** One trajectory through the plugin; the flags the records raised. */
async function replay(trajectory: Trajectory, url: string) {
  const host = createHost({ env: judgeEnv(url, { RFE_SECOND_OPINION: "0" }), directory: DIRECTORY })
  const session = await host.createSession()
  const flags: Flag[] = []
  const confirmed: Flag[] = []
  let decided = 0
  let userID = await host.userMessage(session, trajectory.task)
  for (const [index, step] of trajectory.steps.entries()) {
    const previous = trajectory.steps[index - 1]
    if (index > 0) userID = await host.userMessage(session, "Continue.")
    if (previous?.command) {
      const metadata = previous.exit === undefined ? {} : { exit: previous.exit }
      await host.toolCall(
        session,
        userID,
        "bash",
        { command: previous.command, description: "step" },
        { output: previous.output, metadata },
      )
    }
    if (!step.thought) continue
    await host.reply(session, userID, step.thought)
    await host.settle()
    const report = host.plugin.sessions.get(session)?.report
    for (const item of report?.items ?? []) {
      if (item.via !== "records") continue
      decided++
      const flag = {
        trajectory: trajectory.name,
        step: index,
        claim: item.claim,
        quote: item.quote,
        verdict: item.verdict,
      }
      ;(item.verdict === "unfaithful" ? flags : confirmed).push(flag)
    }
    if (report) report.items = []
  }
  return { flags, confirmed, decided, statements: host.plugin.counters.statements }
}

async function main() {
  const repo = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? process.env.RFE_TRAJECTORY_REPO
  if (!repo) {
    process.stderr.write("usage: bun bench/trajectories.ts /path/to/mirror [--limit=N] (or RFE_TRAJECTORY_REPO)\n")
    process.exit(2)
  }
  const limit = Number(process.argv.find((arg) => arg.startsWith("--limit="))?.slice(8) ?? Infinity)
  const verbose = process.argv.includes("--verbose")
  // --confirmed lists the statements the records confirmed too, to read them by hand as well.
  const listConfirmed = process.argv.includes("--confirmed")
  const files = listTrajectories(repo).slice(0, limit)
  const print = (text = "") => process.stdout.write(`${text}\n`)
  const started = performance.now()
  const all: Flag[] = []
  const confirmed: Flag[] = []
  let decided = 0
  let statements = 0
  let steps = 0
  let unreadable = 0
  await withJudge(
    () => ({ verdict: "faithful", source: "S1" }),
    async (judge) => {
      for (const file of files) {
        const trajectory = readTrajectory(file.name, file.read())
        if (!trajectory) {
          unreadable++
          continue
        }
        steps += trajectory.steps.length
        const result = await replay(trajectory, judge.url)
        all.push(...result.flags)
        confirmed.push(...result.confirmed)
        decided += result.decided
        statements += result.statements
      }
    },
  )
  // A statement is a claim of one trajectory: the same words in two runs are two statements, and one
  // statement repeated in later replies of a run is flagged once.
  const statementsFlagged = new Set(all.map((flag) => `${flag.trajectory}\x00${flag.claim}`)).size
  const distinct = new Map<string, Flag[]>()
  for (const flag of all) distinct.set(flag.claim, [...(distinct.get(flag.claim) ?? []), flag])
  print(
    `## Trajectory replay: ${files.length - unreadable} trajectories (${unreadable} unreadable skipped), ` +
      `${steps} steps, ${statements} statements judged`,
  )
  print(
    `records decided ${decided} statements; ${all.length} flags: ${statementsFlagged} distinct statements ` +
      `(${distinct.size} distinct texts)`,
  )
  print(`(${((performance.now() - started) / 1000).toFixed(0)} s)`)
  print()
  for (const [claim, flags] of distinct) {
    print(`- ${JSON.stringify(claim)}`)
    print(
      `    at: ${flags.map((flag) => `${flag.trajectory}#${flag.step}: ${flag.quote ?? "(no quote)"}`).join("\n        ")}`,
    )
    if (verbose) print()
  }
  if (!listConfirmed) return
  print()
  print(`## Confirmed by the records: ${confirmed.length}`)
  for (const flag of confirmed)
    print(`- ${flag.trajectory}#${flag.step}: ${JSON.stringify(flag.claim)} ← ${flag.quote}`)
}

if (import.meta.main) await main()
