// The real opencode terminal UI under tmux, for tests that assert what a person sees on the screen.
//
//   const tui = await startTui({ scratch, env })   // a project written by writeProject, judge env as for serve
//   await tui.waitReady()                           // the home screen is drawn and the in-process server answers
//   await tui.submit("Read facts.txt")              // typed literally, then Enter
//   await tui.waitForText("Three bridges")          // polls the pane until the text shows
//   tui.capture("after-correction")                 // the pane as plain text, kept under captureDir
//   await tui.stop()
//
// Each TUI gets its own tmux server (-L <socket>, -f /dev/null), so a user's tmux and tmux.conf stay out, and a
// clean environment (env -i), so the test runner's stays out. opencode is started with --port on 127.0.0.1: its
// in-process server then answers HTTP too, which lets the test read /event and the stored messages beside the
// screen. Without --port the TUI listens on no TCP port at all.

import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { followEvents, OPENCODE_BIN, type Scratch } from "./harness.ts"

export interface TuiOptions {
  scratch: Scratch
  env?: Record<string, string>
  cols?: number
  rows?: number
  /** Where capture() keeps its screens; none are kept without it. */
  captureDir?: string
}

export interface Tui {
  url: string
  /** The pane as plain text; with a label it is also kept as `<captureDir>/NN-<label>.txt`. */
  capture(label?: string): string
  key(...keys: string[]): void
  submit(text: string, enters?: number): Promise<void>
  /** Polls the pane until `what` shows; every distinct screen seen on the way goes into `seen` when given. */
  waitForText(what: string | RegExp, timeoutMs?: number, seen?: string[]): Promise<string>
  /** Polls the pane until `ok(screen)`; `what` names the wait in the error. */
  waitForScreen(ok: (screen: string) => boolean, what: string, timeoutMs?: number, seen?: string[]): Promise<string>
  waitReady(timeoutMs?: number): Promise<number>
  /** No session busy on /event, no endpoint request in flight, and nothing new for quietMs. */
  waitIdle(inflight: () => number, quietMs?: number, timeoutMs?: number): Promise<void>
  api(path: string): Promise<Response>
  /**
   * Slows opencode (the TUI and its in-process server alike) the way a CPU limiter does: stopped for `stopMs`,
   * running for `runMs`, over and over, until the returned function is called. Every wait stays on the screen.
   */
  throttle(runMs: number, stopMs: number): () => Promise<void>
  stop(): Promise<void>
}

/** Whether tmux can be run here; the TUI tests skip, saying so, when it cannot. */
export const tmuxVersion = (): string | undefined => {
  const res = spawnSync("tmux", ["-V"], { encoding: "utf8" })
  return res.status === 0 ? res.stdout.trim() : undefined
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

const freePort = (): Promise<number> =>
  new Promise((ok, fail) => {
    const server = createServer()
    server.once("error", fail)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => ok(typeof address === "object" && address ? address.port : 0))
    })
  })

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

// TUIs still running when the test process exits (a failed assertion before stop()): `tmux kill-server` alone
// did not end opencode within 2 s, so the pane's process is killed too.
const running = new Map<string, number>()
process.once("exit", () => {
  for (const [socket, pid] of running) {
    spawnSync("tmux", ["-L", socket, "kill-server"])
    if (alive(pid)) process.kill(pid, "SIGKILL")
  }
})

let started = 0

export async function startTui(opts: TuiOptions): Promise<Tui> {
  const cols = opts.cols ?? 100
  const rows = opts.rows ?? 40
  const socket = `ragfaith-tui-${process.pid}-${started++}`
  const target = `${socket}:0.0`
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env: Record<string, string> = {
    PATH: `${opts.scratch.bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    ...opts.scratch.env,
    ...opts.env,
  }
  // The TUI ignores NO_COLOR anyway; dropping it keeps the pane as a user's terminal draws it.
  delete env.NO_COLOR
  const script = join(opts.scratch.root, `${socket}.sh`)
  const vars = Object.entries(env).map(([k, v]) => quote(`${k}=${v}`))
  const command = [OPENCODE_BIN, "--port", String(port), "--hostname", "127.0.0.1"].map(quote)
  // `exec` makes the pane's pid opencode's own, so stop() can be sure it is gone.
  writeFileSync(
    script,
    `#!/bin/sh\ncd ${quote(opts.scratch.project)}\nexec env -i ${[...vars, ...command].join(" ")}\n`,
    {
      mode: 0o755,
    },
  )
  const tmux = (...args: string[]) => {
    const res = spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" })
    if (res.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${res.stderr}`)
    return res.stdout
  }
  const t0 = Date.now()
  spawnSync("tmux", [
    "-L",
    socket,
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    socket,
    "-x",
    `${cols}`,
    "-y",
    `${rows}`,
    script,
  ])
  tmux("set-option", "-t", socket, "remain-on-exit", "on")
  tmux("set-option", "-t", socket, "status", "off")
  // With no client attached the window keeps its size only when told to.
  tmux("set-window-option", "-t", socket, "window-size", "manual")
  tmux("resize-window", "-t", socket, "-x", `${cols}`, "-y", `${rows}`)
  const panePid = Number(tmux("display-message", "-p", "-t", target, "#{pane_pid}").trim())
  running.set(socket, panePid)

  const abort = new AbortController()
  let stream: ReturnType<typeof followEvents> | undefined
  let shots = 0
  const throttles = new Set<() => Promise<void>>()

  const capture = (label?: string) => {
    const screen = tmux("capture-pane", "-p", "-t", target)
    if (label && opts.captureDir) {
      mkdirSync(opts.captureDir, { recursive: true })
      writeFileSync(join(opts.captureDir, `${String(++shots).padStart(2, "0")}-${label}.txt`), screen)
    }
    return screen
  }
  const key = (...keys: string[]) => void tmux("send-keys", "-t", target, ...keys)
  const waitForScreen: Tui["waitForScreen"] = async (ok, what, timeoutMs = 30000, seen) => {
    const end = Date.now() + timeoutMs
    for (;;) {
      const screen = capture()
      if (seen && seen.at(-1) !== screen) seen.push(screen)
      if (ok(screen)) return screen
      if (Date.now() > end) throw new Error(`no ${what} after ${timeoutMs} ms:\n${screen}`)
      await sleep(seen ? 20 : 100)
    }
  }

  return {
    url,
    capture,
    key,
    async submit(text, enters = 1) {
      tmux("send-keys", "-t", target, "-l", text)
      // A slash command's first Enter only completes the name in the popup; a second one sends it.
      for (let i = 0; i < enters; i++) {
        await sleep(200)
        key("Enter")
      }
    },
    waitForText(what, timeoutMs = 30000, seen) {
      const ok = (screen: string) => (typeof what === "string" ? screen.includes(what) : what.test(screen))
      return waitForScreen(ok, `${what} on screen`, timeoutMs, seen)
    },
    waitForScreen,
    async waitReady(timeoutMs = 60000) {
      const end = Date.now() + timeoutMs
      for (;;) {
        if (/ctrl\+p commands|tab agents/.test(capture())) {
          const health = await fetch(`${url}/global/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null)
          if (health?.ok) break
        }
        if (Date.now() > end) throw new Error(`the TUI was not ready after ${timeoutMs} ms:\n${capture()}`)
        await sleep(100)
      }
      stream = followEvents(url, abort.signal, t0)
      const connected = Date.now() + 5000
      while (!stream.events.some((e) => e.type === "server.connected") && Date.now() < connected) await sleep(20)
      return Date.now() - t0
    },
    async waitIdle(inflight, quietMs = 2000, timeoutMs = 60000) {
      const end = Date.now() + timeoutMs
      for (;;) {
        const busy = [...(stream?.status.values() ?? [])].some((s) => s === "busy" || s === "retry")
        if (!busy && inflight() === 0 && Date.now() - (stream?.lastEvent() ?? 0) >= quietMs) return
        if (Date.now() > end) throw new Error(`the TUI was not idle after ${timeoutMs} ms`)
        await sleep(100)
      }
    },
    api: (path) => fetch(`${url}${path}`),
    throttle(runMs, stopMs) {
      let on = true
      const cycle = (async () => {
        while (on && alive(panePid)) {
          process.kill(panePid, "SIGSTOP")
          await sleep(stopMs)
          process.kill(panePid, "SIGCONT")
          await sleep(runMs)
        }
      })()
      const release = async () => {
        on = false
        await cycle.catch(() => {})
        throttles.delete(release)
        if (alive(panePid)) process.kill(panePid, "SIGCONT")
      }
      throttles.add(release)
      return release
    },
    async stop() {
      abort.abort()
      // a throttled opencode is let run, so it can hear ctrl+c
      for (const release of [...throttles]) await release()
      try {
        // ctrl+c on an empty prompt quits; twice in case the first only cleared something
        key("C-c")
        await sleep(300)
        key("C-c")
      } catch {
        // The pane may be gone already.
      }
      for (const end = Date.now() + 5000; Date.now() < end && alive(panePid); ) await sleep(100)
      spawnSync("tmux", ["-L", socket, "kill-server"])
      if (alive(panePid)) process.kill(panePid, "SIGKILL")
      running.delete(socket)
      rmSync(script, { force: true })
      await stream?.done
    },
  }
}
