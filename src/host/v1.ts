// opencode 1's entry: real effects and the config read, then the hooks.

import { constants, existsSync } from "node:fs"
import { appendFile, mkdir, open, readFile, realpath, stat } from "node:fs/promises"
import type { Hooks, PluginInput, PluginOptions } from "@opencode-ai/plugin"
import { describeError } from "../base/text.ts"
import { type ConfigResult, type Env, parseConfig } from "../config/config.ts"
import type { Deps, HostClient } from "../config/effects.ts"
import { processLedger } from "../state/ledger.ts"
import { createHooks } from "./hooks.ts"

/** opencode CLI subcommands that can host plugins; only `run` exits at the first idle. */
const OPENCODE_SUBCOMMANDS = new Set(["run", "serve", "web", "acp", "tui", "attach", "github", "pr"])

/**
 * opencode's argv is `[bun, /$bunfs/root/src/index.js, <subcommand>, …]`, with global flags possibly first.
 * The first known subcommand decides; the TUI (no subcommand) keeps its session alive like `serve`.
 */
export function detectMode(argv: readonly string[]): "run" | "serve" {
  const subcommand = argv.slice(2).find((arg) => OPENCODE_SUBCOMMANDS.has(arg))
  return subcommand === "run" ? "run" : "serve"
}

/**
 * The head of a regular file. Checked before it is opened, and opened without waiting, so a named pipe or a
 * device never holds the judging of a reply.
 */
async function readHead(path: string, max: number): Promise<Uint8Array | undefined> {
  const info = await stat(path).catch(() => undefined)
  if (!info?.isFile()) return undefined
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => undefined)
  if (!handle) return undefined
  try {
    if (!(await handle.stat()).isFile()) return undefined
    const buffer = new Uint8Array(Math.min(max, info.size))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The plugin's disk access: a missing file reads as undefined, never as an error. */
export const fileDeps: Pick<Deps, "readText" | "appendText" | "ensureDir" | "fileExists" | "realPath" | "readHead"> = {
  readText: (path) =>
    readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined
      throw error
    }),
  appendText: (path, text, mode) =>
    appendFile(path, text, { encoding: "utf8", ...(mode === undefined ? {} : { mode }) }),
  ensureDir: (path) => mkdir(path, { recursive: true }).then(() => {}),
  fileExists: (path) => existsSync(path),
  realPath: (path) => realpath(path).catch(() => undefined),
  readHead: (path, max) => readHead(path, max).catch(() => undefined),
}

/** opencode keeps its logs under the XDG data folder: ~/.local/share/opencode/log by default. */
function opencodeLogDir(env: Env): string {
  const data = env.XDG_DATA_HOME?.trim() || (env.HOME ? `${env.HOME}/.local/share` : "~/.local/share")
  return `${data}/opencode/log`.replace(env.HOME ? `${env.HOME}/` : "\u0000", "~/")
}

export function defaultDeps(client: HostClient): Deps {
  return {
    client,
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    // No wait of the plugin's (a retry's backoff, a toast hold's limit) may keep a process from exiting.
    sleep: (ms) => new Promise((resolve) => void setTimeout(resolve, ms).unref?.()),
    random: Math.random,
    ...fileDeps,
    writeStderr: (text) => {
      process.stderr.write(text)
    },
    mode: detectMode(process.argv),
    logDir: opencodeLogDir(process.env),
    ledger: processLedger(),
    failExit: () => {
      process.exitCode = 1
    },
  }
}

/** The configuration from the plugin's options and the environment; options that cannot be read give defaults. */
export function readConfig(options: unknown, env: Env): ConfigResult {
  try {
    return parseConfig(options as PluginOptions | undefined, env)
  } catch (error) {
    // Only values JSON cannot hold (a BigInt, a throwing getter) get here; a plugin that loads still helps.
    const parsed = parseConfig(undefined, env)
    parsed.warnings.push(`ragfaith: plugin options could not be read (${describeError(error)}); using defaults`)
    return parsed
  }
}

export async function server(input: PluginInput, options?: PluginOptions): Promise<Hooks> {
  const { config, warnings } = readConfig(options, process.env)
  // The SDK's generated client is wider than the calls the plugin makes: HostClient is that slice.
  const client = input.client as unknown as HostClient
  return createHooks({ directory: input.directory }, config, warnings, defaultDeps(client)).hooks
}
