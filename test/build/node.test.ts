/**
 * Loading in a plain Node, as OpenCode Desktop (Electron's Node) and opencode 2's Node build load plugins: a
 * bare `import()` with no flags and no transpile step. The Node is one that strips types (22.18 or later): the
 * machine's own, else the registry's Node 24 build installed once into a cache folder (support/node-host.ts).
 * The package is the real `npm pack` tarball installed into a scratch project's node_modules, where Node
 * refuses to strip types.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { HOOK_KEYS } from "../support/fixtures.ts"
import { parseNodeVersion, provideNode, stripsTypes } from "../support/node-host.ts"

const ROOT = join(import.meta.dir, "../..")
const PACKAGE = "@resonanceee/opencode-ragfaith"
const HOST = provideNode()
const NODE = "node" in HOST ? HOST.node : ""
const NO_NODE = "skip" in HOST
if ("skip" in HOST) console.warn(`node.test.ts: skipped, ${HOST.skip}`)

/**
 * A probe module: imports `target`, calls `server()` on a minimal opencode 1 input and `setup()` on a context
 * that is no opencode 2 host, and prints what it got as one JSON line.
 */
const probe = (target: string) => `
const module = await import(${JSON.stringify(target)})
const plugin = module.default
const client = {
  app: { log: async () => ({ data: true }) },
  tui: { showToast: async () => ({ data: true }) },
  session: { prompt: async () => ({ data: {} }), get: async () => ({ data: {} }) },
}
const input = { client, directory: "/project", worktree: "/project", project: { id: "p" }, serverUrl: new URL("http://localhost:4096/") }
const hooks = await plugin.server(input, { judge: { apiKey: "k" } })
const setup = await plugin.setup({ options: {} })
console.log(JSON.stringify({
  exports: Object.keys(module),
  id: plugin.id,
  hooks: Object.keys(hooks).sort(),
  functions: Object.values(hooks).every((hook) => typeof hook === "function"),
  setup: setup === undefined ? "undefined" : typeof setup,
  node: process.versions.node,
  bun: process.versions.bun ?? null,
}))
`

let scratch = ""
let project = ""

/** Runs `script` (written into the scratch project) with `runtime` and no flags; the last stdout line, parsed. */
function run(runtime: string, name: string, script: string) {
  const file = join(project, name)
  writeFileSync(file, script)
  const result = spawnSync(runtime, [file], { cwd: project, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } })
  const last = result.stdout.trim().split("\n").at(-1) ?? ""
  return { status: result.status, stderr: result.stderr, json: last.startsWith("{") ? JSON.parse(last) : undefined }
}

const expected = (runtime: "node" | "bun") => ({
  exports: ["default"],
  id: "ragfaith",
  hooks: HOOK_KEYS,
  functions: true,
  setup: "undefined",
  node: expect.any(String),
  bun: runtime === "bun" ? expect.any(String) : null,
})

describe.skipIf(NO_NODE)("loading in a plain Node, as OpenCode Desktop and opencode 2's Node build do", () => {
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "ragfaith-node-"))
    project = join(scratch, "project")
    mkdirSync(project)
    const quiet = { ...process.env, npm_config_loglevel: "silent", npm_config_update_notifier: "false" }
    const pack = spawnSync("npm", ["pack", "--ignore-scripts", "--pack-destination", scratch, ROOT], {
      cwd: ROOT,
      encoding: "utf8",
      env: quiet,
    })
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`)
    const tarball = readdirSync(scratch).find((file) => file.endsWith(".tgz"))
    if (!tarball) throw new Error("npm pack wrote no tarball")
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "desktop-probe", private: true, type: "module" }),
    )
    const install = spawnSync(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", join(scratch, tarball)],
      { cwd: project, encoding: "utf8", env: quiet },
    )
    if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`)
  }, 60_000)

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  test("the Node strips types by default (22.18 or later)", () => {
    const version = spawnSync(NODE, ["--version"], { encoding: "utf8" }).stdout.trim()
    expect(version).toBe(`v${"node" in HOST ? HOST.version : ""}`)
    expect(stripsTypes(parseNodeVersion(version) ?? [0, 0, 0])).toBe(true)
  })

  test("the installed package, imported by name with no flags, gives server()'s hooks", () => {
    const result = run(NODE, "by-name.mjs", probe(PACKAGE))
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    expect(result.json).toEqual(expected("node"))
    expect(result.json.node).toBe("node" in HOST ? HOST.version : "")
  })

  test("so does its ./server export", () => {
    const result = run(NODE, "server.mjs", probe(`${PACKAGE}/server`))
    expect(result.status).toBe(0)
    expect(result.json).toEqual(expected("node"))
  })

  test("why the entry is JavaScript: the TypeScript file inside node_modules is refused by Node", () => {
    const inside = join(project, "node_modules", ...PACKAGE.split("/"), "src", "index.ts")
    expect(existsSync(inside)).toBe(true)
    const result = run(NODE, "inside.mjs", probe(pathToFileURL(inside).href))
    expect(result.status).not.toBe(0)
    expect(result.stderr).toContain("ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING")
  })

  test.each(["ts", "js"])("the copied single file, index.%s, loads outside node_modules", (kind) => {
    // the TypeScript file through Node's own type stripping, which it does outside node_modules
    const plugins = join(scratch, `config-${kind}`, "opencode", "plugins")
    mkdirSync(plugins, { recursive: true })
    const copy = join(plugins, `ragfaith.${kind}`)
    copyFileSync(join(ROOT, "src", `index.${kind}`), copy)
    const result = run(NODE, `copy-${kind}.mjs`, probe(pathToFileURL(copy).href))
    expect(result.status).toBe(0)
    expect(result.json).toEqual(expected("node"))
  })

  test("Bun loads the installed package by name, and its TypeScript entry", () => {
    const byName = run(process.execPath, "bun-name.mjs", probe(PACKAGE))
    expect(byName.status).toBe(0)
    expect(byName.json).toEqual(expected("bun"))
    const typescript = join(project, "node_modules", ...PACKAGE.split("/"), "src", "index.ts")
    const source = run(process.execPath, "bun-ts.mjs", probe(pathToFileURL(typescript).href))
    expect(source.status).toBe(0)
    expect(source.json).toEqual(expected("bun"))
  })
})
