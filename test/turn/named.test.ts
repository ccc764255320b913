/**
 * RFE_READ_NAMED through the fake host: a file a claim names that no tool read reaches the judge only when the
 * check is on, labelled as read by the check; the note says so and asks the agent to read it; `/ragfaith`
 * names it. Files that are sensitive, outside the project, behind an escaping link, ignored or binary never
 * reach the judge, and the caps hold. The work tree is a real scratch folder, read through the real effects.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { NAMED_FILE_CHARS } from "../../src/capture/named.ts"
import type { Deps } from "../../src/config/effects.ts"
import { fileDeps } from "../../src/host/v1.ts"
import { tempDirs } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../support/judge.ts"

const NET_TS = `import { sleep } from "./sleep"

/** How many times a request is tried in all. */
export const MAX_ATTEMPTS = 3

/** Tries \`fn\` again after a fixed pause of 250 ms, up to MAX_ATTEMPTS times in all. */
export async function retry<T>(fn: () => Promise<T>): Promise<T> {
  let last: unknown
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      return await fn()
    } catch (error) {
      last = error
      await sleep(250)
    }
  }
  throw last
}
`

const README = "# demo\n\nA small HTTP client with a retry helper.\n"

const WRONG = "`retry()` in `src/net.ts` backs off exponentially, up to 5 attempts."
const RIGHT = "`retry()` in `src/net.ts` waits a fixed 250 ms between tries."

const dirs = tempDirs("ragfaith-named-host-")
let project = ""
const write = (path: string, text: string | Uint8Array) => {
  mkdirSync(dirname(join(project, path)), { recursive: true })
  writeFileSync(join(project, path), text)
}

beforeAll(() => {
  const root = dirs.make()
  project = join(root, "project")
  mkdirSync(join(project, ".git"), { recursive: true })
  write(".gitignore", "dist/\n")
  write("README.md", README)
  write("src/net.ts", NET_TS)
  write(".env.local", "API_TOKEN=ENV-MARKER-7731\n")
  write("dist/net.js", "DIST-MARKER-7731\n")
  write("assets/net.bin", new Uint8Array([69, 76, 70, 0, 1, 2, 3, 0, 66, 73, 78, 45, 77]))
  write(join("..", "outside", "net.ts"), "OUTSIDE-MARKER-7731\n")
  symlinkSync(join(root, "outside", "net.ts"), join(project, "src/link.ts"))
  write(
    "src/client.ts",
    `export const GITHUB_TOKEN = "ghp_${"Zq9X".repeat(9)}"\nexport const BASE = "https://api.example.test"\n`,
  )
  for (const name of ["a", "b", "c", "d"]) write(`src/${name}.ts`, `export const ${name} = "FILE-${name}"\n`)
  write("src/big.ts", Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i} // BIG`).join("\n"))
})
afterAll(() => dirs.cleanup())

/** The judge: the attempts claim contradicted by the file the check read, everything else unverifiable. */
const attemptsJudge = (call: JudgeCall): JudgeReply => {
  const checked = call.sources.find((source) => source.text.includes("MAX_ATTEMPTS = 3"))
  if (checked && call.claim.includes("5 attempts")) {
    return { verdict: "unfaithful", source: checked.id, quote: "export const MAX_ATTEMPTS = 3", reason: "three tries" }
  }
  if (checked && call.claim.includes("250 ms")) {
    return { verdict: "faithful", source: checked.id, quote: "a fixed pause of 250 ms" }
  }
  return { verdict: "unverifiable" }
}

interface TurnOptions {
  env?: Record<string, string>
  reply?: string
  /** Whether the agent read the README first: a session with evidence of its own. */
  readme?: boolean
  deps?: Partial<Deps>
  correct?: (note: string) => string | undefined
}

async function turn(options: TurnOptions = {}, rule: (call: JudgeCall) => JudgeReply = attemptsJudge) {
  return withJudge(rule, async (judge) => {
    const host = createHost({
      directory: project,
      env: judgeEnv(judge.url, options.env ?? { RFE_READ_NAMED: "1" }),
      deps: { ...fileDeps, ...options.deps },
      correct: options.correct ?? (() => undefined),
    })
    const session = await host.createSession()
    const user = await host.userMessage(session, "How does the retry helper behave?")
    if (options.readme !== false) {
      const path = join(project, "README.md")
      await host.toolCall(
        session,
        user,
        "read",
        { filePath: path },
        {
          output: `<path>${path}</path>\n<type>file</type>\n<content>\n1: # demo\n2: \n3: A small HTTP client with a retry helper.\n</content>`,
        },
      )
    }
    await host.reply(session, user, options.reply ?? WRONG)
    await host.settle()
    return { host, session, requests: [...judge.requests] }
  })
}

const sent = (requests: readonly JudgeCall[]) => requests.map((request) => request.userContent).join("\n")

describe("a file named in a claim that no tool read (RFE_READ_NAMED)", () => {
  test("reaches the judge when on, labelled as read by the check, and the note tells the agent to read it", async () => {
    const { host, requests } = await turn()
    const first = requests.find((request) => request.model === "judge-main")
    expect(first?.userContent).toContain('ref="src/net.ts:1-18, read by the check"')
    expect(first?.userContent).toContain("4: export const MAX_ATTEMPTS = 3")
    expect(requests.some((request) => request.model === "judge-fallback")).toBe(true)
    const note = host.prompts[0]?.text ?? ""
    expect(note).toContain("[source: src/net.ts:1-18, read by the check]")
    expect(note).toContain('The source says: "export const MAX_ATTEMPTS = 3".')
    expect(note).toContain("You did not read `src/net.ts` in this session; the check read that file itself")
    expect(note).toContain("Read it with your read tool before you answer again.")
  })

  test("does not reach the judge when off: the claim stays unverifiable and nothing is sent", async () => {
    const { host, requests } = await turn({ env: {} })
    expect(requests.length).toBeGreaterThan(0)
    expect(sent(requests)).not.toContain("MAX_ATTEMPTS")
    expect(sent(requests)).not.toContain("read by the check")
    expect(host.prompts).toEqual([])
  })

  test("the option evidence.readNamed turns it on as the variable does", async () => {
    await withJudge(attemptsJudge, async (judge) => {
      const host = createHost({
        directory: project,
        env: judgeEnv(judge.url),
        options: { evidence: { readNamed: true } },
        deps: fileDeps,
        correct: () => undefined,
      })
      const session = await host.createSession()
      const user = await host.userMessage(session, "How does the retry helper behave?")
      await host.reply(session, user, WRONG)
      await host.settle()
      expect(host.prompts[0]?.text).toContain("read by the check")
    })
  })

  test("a true claim about the file is silent", async () => {
    const { host, requests } = await turn({ reply: RIGHT })
    expect(sent(requests)).toContain("read by the check")
    expect(host.prompts).toEqual([])
  })

  test("a session with no tool call at all is judged against the file alone, when on", async () => {
    const on = await turn({ readme: false })
    expect(on.host.prompts[0]?.text).toContain("You did not read `src/net.ts`")
    const off = await turn({ readme: false, env: {} })
    expect(off.requests).toEqual([])
  })

  test("in a session with no tool call, a reply that names no readable file is not judged at all", async () => {
    const none = await turn({ readme: false, reply: "The helper backs off exponentially, up to 5 attempts." })
    expect(none.requests).toEqual([])
    const unreadable = await turn({ readme: false, reply: "`dist/net.js` backs off exponentially, up to 5 attempts." })
    expect(unreadable.requests).toEqual([])
    const named = await turn({ readme: false, reply: `${WRONG} It gives up after that.` })
    expect(named.requests.some((request) => request.claim === "It gives up after that.")).toBe(true)
  })

  test("a file the agent read itself is not read again by the check", async () => {
    await withJudge(attemptsJudge, async (judge) => {
      const host = createHost({ directory: project, env: judgeEnv(judge.url, { RFE_READ_NAMED: "1" }), deps: fileDeps })
      const session = await host.createSession()
      await host.readTurn(session, "How does retry work?", { path: join(project, "src/net.ts"), text: NET_TS }, WRONG)
      await host.settle()
      expect(sent(judge.requests)).not.toContain("read by the check")
      expect(sent(judge.requests)).toContain('ref="src/net.ts:1-')
    })
  })

  test("the file is read at idle, in the judging, never in a hook", async () => {
    const reads: string[] = []
    await withJudge(attemptsJudge, async (judge) => {
      const host = createHost({
        directory: project,
        env: judgeEnv(judge.url, { RFE_READ_NAMED: "1" }),
        deps: {
          ...fileDeps,
          readHead: (path, max) => {
            reads.push(path)
            return fileDeps.readHead(path, max)
          },
        },
        correct: () => undefined,
      })
      const session = await host.createSession()
      const user = await host.userMessage(session, "How does the retry helper behave?")
      await host.reply(session, user, WRONG, { idle: false })
      expect(reads).toEqual([])
      await host.idle(session)
      await host.settle()
      expect(reads.map((path) => path.slice(project.length))).toEqual(["/src/net.ts"])
    })
  })

  test("/ragfaith says which files the check read itself", async () => {
    const { host, session } = await turn()
    await host.command(session, "ragfaith")
    const report = host.reports.at(-1)?.parts[0]?.text ?? ""
    expect(report).toContain("The check read a file the agent never read, to judge against:")
    expect(report.replace(/\s+/g, " ")).toContain("src/net.ts:1-18.")
  })

  test("the agent reads the file and corrects itself: the correction is judged on its own read", async () => {
    const { host, requests } = await turn({
      correct: () => "`retry()` in `src/net.ts` tries at most 3 times, with a fixed 250 ms pause.",
    })
    expect(host.prompts).toHaveLength(1)
    expect(requests.some((request) => request.claim.includes("at most 3 times"))).toBe(true)
  })

  test.each([
    ["a sensitive file", "`.env.local` sets the token to ENV.", "ENV-MARKER-7731"],
    ["a file outside the work tree", "`../outside/net.ts` holds the real helper.", "OUTSIDE-MARKER-7731"],
    ["a symlink that escapes the work tree", "`src/link.ts` holds the real helper.", "OUTSIDE-MARKER-7731"],
    ["a file .gitignore ignores", "`dist/net.js` is the built helper.", "DIST-MARKER-7731"],
    ["a binary file", "`assets/net.bin` is the compiled helper.", "BIN-M"],
  ])("never %s", async (_, reply, marker) => {
    for (const readme of [true, false]) {
      const { requests } = await turn({ reply, readme })
      expect(sent(requests)).not.toContain(marker)
      expect(sent(requests)).not.toContain("read by the check")
    }
  })

  test("a file the check reads is redacted like every source", async () => {
    const { requests } = await turn({ reply: "`src/client.ts` sets the base URL to the staging host." })
    expect(sent(requests)).toContain('ref="src/client.ts:1-2, read by the check"')
    expect(sent(requests)).toContain("https://api.example.test")
    expect(sent(requests)).not.toContain("Zq9XZq9X")
    expect(sent(requests)).toContain("[REDACTED]")
  })

  test("caps: at most three files a reply, each at most 4,000 characters", async () => {
    const reply =
      "`src/big.ts` exports 400 values. `src/a.ts` exports a. `src/b.ts` exports b. `src/c.ts` exports c. `src/d.ts` exports d."
    const { requests } = await turn({ reply })
    const [first] = requests
    const checked = first?.sources.filter((source) => source.attrs.includes("read by the check")) ?? []
    expect(checked.map((source) => source.id)).toEqual(["C1", "C2", "C3"])
    expect(checked.map((source) => /ref="([^":]+)/.exec(source.attrs)?.[1])).toEqual([
      "src/big.ts",
      "src/a.ts",
      "src/b.ts",
    ])
    expect(checked[0]?.text.length).toBeLessThanOrEqual(NAMED_FILE_CHARS)
    expect(checked[0]?.text.length).toBeGreaterThan(NAMED_FILE_CHARS - 100)
    expect(sent(requests)).not.toContain("FILE-c")
    expect(sent(requests)).not.toContain("FILE-d")
  })

  test("a cited line puts the window there", async () => {
    const { requests } = await turn({ reply: "Line 300 of `src/big.ts:300` exports v299." })
    const checked = requests[0]?.sources.find((source) => source.attrs.includes("read by the check"))
    expect(checked?.attrs).toContain('ref="src/big.ts:294-')
    expect(checked?.text.split("\n")[0]).toBe("294: export const v293 = 293 // BIG")
  })
})
