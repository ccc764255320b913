import { describe, expect, test } from "bun:test"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import plugin from "../../src/index.ts"
import { HOOK_KEYS } from "../support/fixtures.ts"

const ROOT = join(import.meta.dir, "../..")
const SOURCE = join(ROOT, "src", "index.ts")

type Logged = { level: string; message: string }

/** A PluginInput with every key opencode passes; the client records what the plugin does with it. */
function fakeInput() {
  const logs: Logged[] = []
  const toasts: string[] = []
  const prompts: unknown[] = []
  const client = {
    app: {
      log: async (call: { body: Logged }) => {
        logs.push({ level: call.body.level, message: call.body.message })
        return { data: true }
      },
    },
    tui: {
      showToast: async (call: { body: { message: string } }) => {
        toasts.push(call.body.message)
        return { data: true }
      },
    },
    session: {
      prompt: async (call: unknown) => {
        prompts.push(call)
        return { data: {} }
      },
      get: async () => ({ data: {} }),
    },
  }
  const input = {
    client,
    project: { id: "p", worktree: "/project", time: { created: 0 } },
    directory: "/project",
    worktree: "/project",
    serverUrl: new URL("http://localhost:4096/"),
    $: () => {
      throw new Error("the plugin must not run shell commands")
    },
    experimental_workspace: { register: () => {} },
  } as unknown as Parameters<typeof plugin.server>[0]
  return { input, logs, toasts, prompts }
}

/** The plugin's hooks with loose types, so garbage can be passed as the host never would. */
type LooseHooks = Record<string, (...args: unknown[]) => unknown>

describe("export surface", () => {
  test("the module has exactly one runtime export: default", async () => {
    const module = await import("../../src/index.ts")
    expect(Object.keys(module)).toEqual(["default"])
  })

  test("default is { id, server, setup }: server for opencode 1, setup for opencode 2", () => {
    expect(Object.keys(plugin).sort()).toEqual(["id", "server", "setup"])
    expect(typeof plugin.setup).toBe("function")
    // opencode 2 takes the `effect` variant over `setup` when both exist: there must never be one
    expect("effect" in plugin).toBe(false)
    expect(plugin.id).toBe("ragfaith")
    expect(typeof plugin.server).toBe("function")
  })

  test("server() returns exactly the hooks opencode 1 calls (HOOK_KEYS), each a function", async () => {
    const { input } = fakeInput()
    const hooks = await plugin.server(input, { judge: { apiKey: "k" } })
    expect(Object.keys(hooks).sort()).toEqual(HOOK_KEYS)
    for (const key of HOOK_KEYS) expect(typeof (hooks as LooseHooks)[key]).toBe("function")
  })

  test("server() makes no network call, runs no shell and injects nothing", async () => {
    const { input, prompts, toasts } = fakeInput()
    const realFetch = globalThis.fetch
    let fetches = 0
    globalThis.fetch = (async () => {
      fetches++
      throw new Error("no network at load")
    }) as unknown as typeof fetch
    try {
      await plugin.server(input, { judge: { apiKey: "k" }, strictness: "strict" })
    } finally {
      globalThis.fetch = realFetch
    }
    expect(fetches).toBe(0)
    expect(prompts).toEqual([])
    expect(toasts).toEqual([])
  })

  test("importing the module reads no env, starts no timer, fetches nothing and creates no state", () => {
    const dir = mkdtempSync(join(tmpdir(), "ragfaith-import-"))
    try {
      const script = join(dir, "probe.ts")
      writeFileSync(
        script,
        `
const reads: string[] = []
const env = new Proxy(process.env, {
  get(target, key) { if (typeof key === "string") reads.push(key); return Reflect.get(target, key) },
  ownKeys(target) { reads.push("*"); return Reflect.ownKeys(target) },
})
Object.defineProperty(process, "env", { value: env, configurable: true, writable: true })
let timers = 0
let fetches = 0
const realTimeout = globalThis.setTimeout
const realInterval = globalThis.setInterval
globalThis.setTimeout = ((...args: unknown[]) => { timers++; return (realTimeout as any)(...args) }) as any
globalThis.setInterval = ((...args: unknown[]) => { timers++; return (realInterval as any)(...args) }) as any
globalThis.fetch = (async () => { fetches++; throw new Error("no") }) as any
const module = await import(${JSON.stringify(SOURCE)})
const ledger = (globalThis as any)[Symbol.for("ragfaith.ledger.v1")] !== undefined
console.log(JSON.stringify({ reads, timers, fetches, ledger, keys: Object.keys(module) }))
`,
      )
      const run = Bun.spawnSync([process.execPath, script], { cwd: dir, env: { PATH: process.env.PATH ?? "" } })
      expect(run.exitCode).toBe(0)
      const result = JSON.parse(run.stdout.toString().trim().split("\n").at(-1) ?? "{}")
      expect(result).toEqual({ reads: [], timers: 0, fetches: 0, ledger: false, keys: ["default"] })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("package contents", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))

  test("npm pack ships exactly LICENSE, README.md, package.json, src/index.ts and src/index.js", () => {
    const run = Bun.spawnSync(["npm", "pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: ROOT,
      env: { ...process.env, npm_config_loglevel: "silent", npm_config_update_notifier: "false" },
    })
    expect(run.exitCode).toBe(0)
    const [report] = JSON.parse(run.stdout.toString()) as Array<{ files: Array<{ path: string }> }>
    const files = (report?.files ?? []).map((file) => file.path).sort()
    expect(files).toEqual(["LICENSE", "README.md", "package.json", "src/index.js", "src/index.ts"])
  })

  test("package.json: ESM, entry points at the JavaScript build, types at the source file", () => {
    expect(pkg.type).toBe("module")
    expect(pkg.main).toBe("./src/index.js")
    expect(pkg.exports["."]).toBe("./src/index.js")
    expect(pkg.exports["./server"]).toBe("./src/index.js")
    expect(pkg.types).toBe("./src/index.ts")
  })

  test("package.json: engines.opencode and no runtime or peer dependencies", () => {
    expect(pkg.engines?.opencode).toBe(">=1.18.33")
    expect(pkg.dependencies).toBeUndefined()
    expect(pkg.peerDependencies).toBeUndefined()
    expect(pkg.optionalDependencies).toBeUndefined()
  })

  test("package.json: every devDependency is pinned to an exact version", () => {
    const entries = Object.entries(pkg.devDependencies ?? {}) as Array<[string, string]>
    expect(entries.length).toBeGreaterThan(0)
    for (const [name, version] of entries) {
      expect({ name, version }).toEqual({ name, version: expect.stringMatching(/^\d+\.\d+\.\d+(?:-[\w.]+)?$/) })
    }
  })

  test("the source imports only node: builtins at run time; the opencode packages only as types", () => {
    const source = readFileSync(SOURCE, "utf8")
    const imports = [...source.matchAll(/^import\s+(type\s+)?[\s\S]*?from\s+["']([^"']+)["']/gm)].map((match) => ({
      typeOnly: match[1] !== undefined,
      from: match[2] ?? "",
    }))
    expect(imports.length).toBeGreaterThan(0)
    for (const { typeOnly, from } of imports) {
      if (typeOnly) expect(from).toMatch(/^(?:node:|@opencode-ai\/(?:plugin|sdk)$)/)
      else expect(from).toStartWith("node:")
    }
    expect(source).not.toMatch(/^import\s+["']/m)
    expect(source).not.toMatch(/\brequire\s*\(/)
    expect(source).not.toMatch(/\bimport\s*\(\s*["'`]/)
    expect(source).not.toMatch(/^export\s+(?!type\b|interface\b|default\b)/m)
  })

  test("the source and its JavaScript have no console.* call", () => {
    expect(readFileSync(SOURCE, "utf8")).not.toMatch(/\bconsole\.\w+\(/)
    expect(readFileSync(join(ROOT, "src", "index.js"), "utf8")).not.toMatch(/\bconsole\.\w+\(/)
  })
})

describe("the hook boundary", () => {
  const circular: Record<string, unknown> = { tool: "read", sessionID: "ses_circ" }
  circular.self = circular
  circular.args = circular
  circular.output = circular
  circular.metadata = circular
  const throwingGetters = Object.defineProperties(
    {},
    Object.fromEntries(
      ["args", "output", "metadata", "message", "parts", "text", "sessionID", "tool", "event", "agent", "model"].map(
        (key) => [
          key,
          {
            enumerable: true,
            get() {
              throw new Error(`getter ${key} blew up`)
            },
          },
        ],
      ),
    ),
  )
  const GARBAGE: Array<[string, unknown]> = [
    ["undefined", undefined],
    ["a number", 7],
    ["a string", "garbage"],
    ["an array", [1, 2]],
    ["a circular object", circular],
    ["an object whose getters throw", throwingGetters],
    ["wrong field types", { tool: 5, sessionID: {}, args: "x", output: [], message: 1, parts: {}, text: 9 }],
  ]

  const hooksUnderTest = async () => {
    const fake = fakeInput()
    const hooks = (await plugin.server(fake.input, { judge: { apiKey: "k" } })) as unknown as LooseHooks
    return { hooks, ...fake }
  }

  // `event` is covered separately: the host always passes `{ event }`, so its argument is the event itself.
  const callable = HOOK_KEYS.filter((key) => key !== "event")

  test.each(callable)("%s resolves for every kind of garbage input and output, and never throws", async (key) => {
    const { hooks } = await hooksUnderTest()
    for (const [, input] of GARBAGE) {
      for (const [, output] of [...GARBAGE, ["null", null] as [string, unknown]]) {
        let result: unknown
        expect(() => {
          result = hooks[key]?.(input, output)
        }).not.toThrow()
        expect(result).toBeInstanceOf(Promise)
        await expect(result as Promise<unknown>).resolves.toBeUndefined()
      }
    }
  })

  test.each([
    ["tool.execute.after", { tool: "read", sessionID: "s1", args: throwingGetters }, throwingGetters],
    ["tool.execute.before", { tool: "bash", sessionID: "s1" }, throwingGetters],
    ["chat.message", { sessionID: "s1" }, throwingGetters],
    ["experimental.text.complete", throwingGetters, { text: "x" }],
    ["chat.params", throwingGetters, {}],
  ])("%s with a throwing getter logs the error at level error, naming the hook", async (key, input, output) => {
    const { hooks, logs } = await hooksUnderTest()
    await hooks[key]?.(input, output)
    const errors = logs.filter((line) => line.level === "error")
    expect(errors).toHaveLength(1)
    expect(errors[0]?.message).toBe(`ragfaith: ${key} failed`)
  })

  test("a circular tool output is captured without throwing or logging an error", async () => {
    const { hooks, logs } = await hooksUnderTest()
    await hooks["tool.execute.after"]?.({ tool: "read", sessionID: "s1", args: circular }, circular)
    await hooks["tool.execute.before"]?.({ tool: "write", sessionID: "s1" }, circular)
    expect(logs.filter((line) => line.level === "error")).toEqual([])
  })

  test("the event hook is an async function", async () => {
    const { hooks } = await hooksUnderTest()
    expect(hooks.event?.constructor.name).toBe("AsyncFunction")
  })

  test.each([
    ["an empty object", {}],
    ["event: null", { event: null }],
    ["event: a string", { event: "session.idle" }],
    ["a circular event", { event: { type: "message.updated", properties: circular } }],
    ["an event whose getters throw", { event: throwingGetters }],
    ["a session.idle without a session", { event: { type: "session.idle", properties: {} } }],
    ["a tool part without state", { event: { type: "message.part.updated", properties: { part: { type: "tool" } } } }],
    ["properties whose getters throw", { event: { type: "message.part.updated", properties: throwingGetters } }],
    ["an unknown event type", { event: { type: "x.y", properties: { sessionID: 5 } } }],
  ])("the event hook resolves and never throws synchronously for %s", async (_name, argument) => {
    const { hooks } = await hooksUnderTest()
    let result: unknown
    expect(() => {
      result = hooks.event?.(argument)
    }).not.toThrow()
    expect(result).toBeInstanceOf(Promise)
    await expect(result as Promise<unknown>).resolves.toBeUndefined()
  })

  // BUG: `event: async ({ event }) => guard(...)` destructures its argument outside the guard, so a call with
  // no argument rejects (TypeError) instead of resolving. Harmless with the real host, which always passes
  // `{ event }`, but the boundary is meant to swallow everything.
  test("the event hook resolves even when called with no argument at all", async () => {
    const { hooks } = await hooksUnderTest()
    await expect(hooks.event?.(undefined) as Promise<unknown>).resolves.toBeUndefined()
    await expect(hooks.event?.(null) as Promise<unknown>).resolves.toBeUndefined()
  })

  test("a logging client that throws does not break a hook", async () => {
    const fake = fakeInput()
    const client = fake.input.client as unknown as { app: { log: () => never } }
    client.app.log = () => {
      throw new Error("log down")
    }
    const hooks = (await plugin.server(fake.input, { judge: { apiKey: "k" } })) as unknown as LooseHooks
    await expect(
      hooks["tool.execute.after"]?.({ tool: "read", sessionID: "s1", args: throwingGetters }, {}) as Promise<unknown>,
    ).resolves.toBeUndefined()
  })
})
