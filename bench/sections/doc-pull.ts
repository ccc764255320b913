// Section 4 of `bun bench/run.ts`: `tool.execute.before`, the doc-pull check of commands and written code.
import { createHost } from "../../test/support/host.ts"
import { judgeEnv } from "../../test/support/judge.ts"
import { fmtBytes, fmtMs, KB, MB, pyCode, repeatTo, summarize, table, tsCode } from "../lib.ts"

import { hookOf, type Report } from "./common.ts"

/** A 10 KB chain of installs and other commands, as an agent might run across a monorepo. */
function longCommand(size: number) {
  const segments: string[] = []
  for (let i = 0; segments.join(" && ").length < size; i++) {
    segments.push(
      `cd packages/svc-${i}`,
      `npm install express@4.19.2 cors@2 left-pad-${i}`,
      `bun add zod@3.23.8 -D`,
      `pip install requests==2.32.3 httpx acme-sdk-${i}`,
      `yarn add @acme/ui-${i}@1`,
      `npm run build --workspace=svc-${i}`,
      `echo "svc-${i} ok"`,
    )
  }
  return segments.join(" && ").slice(0, size)
}

const DOCS_PAGE = repeatTo(
  "# Getting started\n\nInstall with `npm install express@4` and `npm i zod@3`. The zod 3.x API validates input at " +
    "runtime. Express 4 routes requests through middleware; see https://expressjs.com/en/4x/api.html for details. " +
    "For HTTP from Python use requests 2.x or httpx.\n\n",
  20 * KB,
)

export async function benchDocPull({ print }: Report) {
  print("## 4. `tool.execute.before` (doc-pull check)")
  print()
  const host = createHost({ env: judgeEnv("http://127.0.0.1:9/v1") })
  const before = hookOf(host, "tool.execute.before")
  const after = hookOf(host, "tool.execute.after")
  const session = await host.createSession()
  // A fetched docs page in the session, so the check also searches docs and reads version numbers.
  await after(
    { tool: "webfetch", sessionID: session, callID: "call_docs", args: { url: "https://docs.example/start" } },
    { output: DOCS_PAGE, title: "docs", metadata: {} },
  )
  const state = host.plugin.sessions.get(session)
  const command = longCommand(10 * KB)
  const cases = [
    {
      label: `bash, ${fmtBytes(command.length)} command, ${command.split("&&").length} segments`,
      tool: "bash",
      args: { command, description: "install everything" },
      runs: 300,
    },
    {
      label: "write, 1 MB TypeScript (imports in every module)",
      tool: "write",
      args: { filePath: "/project/src/bundle.ts", content: tsCode(MB, { seed: 5 }) },
      runs: 40,
    },
    {
      label: "write, 1 MB Python (PEP 8)",
      tool: "write",
      args: { filePath: "/project/app/jobs.py", content: pyCode(MB) },
      runs: 40,
    },
  ]
  const rows: string[][] = []
  for (const item of cases) {
    const samples: number[] = []
    for (let i = 0; i < item.runs + 3; i++) {
      // Every package is new to the session each time: the check does its full work (worst case).
      state?.warnedPackages.clear()
      state?.toastKeys.clear()
      host.toasts.length = 0
      host.logs.length = 0
      const started = performance.now()
      await before({ tool: item.tool, sessionID: session, callID: `call_${i}` }, { args: item.args })
      if (i >= 3) samples.push(performance.now() - started)
    }
    const s = summarize(samples)
    rows.push([item.label, String(s.n), fmtMs(s.p50), fmtMs(s.p99), String(state?.warnedPackages.size ?? 0)])
  }
  print(table(["input", "calls", "p50", "p99", "packages found"], rows))
  print()
}
