// Flags the user marked wrong (`/ragfaith wrong`): never flagged again in the project, kept beside the verdict cache.

import { createHash } from "node:crypto"
import { LIMITS, trimOldest } from "../base/bounds.ts"
import type { Deps } from "../config/effects.ts"

/** The file beside the verdict cache's: one JSON line per statement marked wrong. */
export const DISPUTES_FILE = "opencode-disputes.jsonl"

/**
 * A statement as disputes know it: a digest of its normalised key, so a flagged item carries no text of the
 * reply beyond the clipped, redacted claim it shows (the items go to logs).
 */
export function statementId(claimKey: string): string {
  return createHash("sha256").update(claimKey).digest("hex").slice(0, 32)
}

/**
 * A statement's dispute key: its normalised key within the project directory, hashed, so the file holds no
 * text of a reply (which may quote a source the user would not keep on disk) and one project's marks never
 * clear a statement in another.
 */
export function disputeKey(directory: string, id: string): string {
  return createHash("sha256").update(`${directory}\x00${id}`).digest("hex")
}

export interface DisputeStore {
  /** Reads the file once per plugin lifetime; later calls wait for that one read. */
  load(): Promise<void>
  /** Whether the statement with this `statementId` was marked wrong in this project. */
  has(id: string): boolean
  /** Marks a statement; resolves once the mark is on disk (where there is a disk), never rejects. */
  add(id: string): Promise<void>
  readonly size: number
}

/**
 * Memory first; with a cache directory, an append-only JSONL file read once, written one line per mark the
 * way the verdict cache writes (one `appendFile` of one short line, so processes sharing it do not interleave).
 * A line cut short by a crash is skipped. A directory that cannot be used leaves the marks in memory, told once.
 */
export function createDisputeStore(
  cacheDir: string | undefined,
  directory: string,
  deps: Pick<Deps, "readText" | "appendText" | "ensureDir" | "now">,
  warn: (message: string) => void,
): DisputeStore {
  const marked = new Set<string>()
  const file = `${cacheDir}/${DISPUTES_FILE}`
  let usable = cacheDir !== undefined
  let loading: Promise<void> | undefined
  let writing: Promise<void> = Promise.resolve()
  let cutTail = false
  const disable = (error: unknown) => {
    if (!usable) return
    usable = false
    warn(
      `ragfaith: cannot keep the statements marked wrong in RFE_CACHE_DIR (${String(error)}); they last until opencode stops`,
    )
  }
  const remember = (key: string) => {
    marked.delete(key)
    marked.add(key)
    trimOldest(marked, LIMITS.cacheEntries)
  }
  return {
    load() {
      if (!usable || !cacheDir) return Promise.resolve()
      loading ??= deps
        .ensureDir(cacheDir)
        .then(() => deps.readText(file))
        .then((text) => {
          for (const line of (text ?? "").split("\n")) {
            try {
              const record = JSON.parse(line) as { k?: unknown }
              if (typeof record.k === "string" && /^[0-9a-f]{64}$/.test(record.k)) remember(record.k)
            } catch {
              // A line cut short by a crash or a full disk: skip it, keep the rest.
            }
          }
          cutTail = Boolean(text && !text.endsWith("\n"))
        })
        .catch(disable)
      return loading
    },
    has: (id) => marked.has(disputeKey(directory, id)),
    add(id) {
      const key = disputeKey(directory, id)
      if (marked.has(key)) return writing
      remember(key)
      if (!usable) return writing
      const line = `${cutTail ? "\n" : ""}${JSON.stringify({ k: key, t: deps.now() })}\n`
      cutTail = false
      writing = writing.then(() => (usable ? deps.appendText(file, line) : undefined)).catch(disable)
      return writing
    },
    get size() {
      return marked.size
    },
  }
}
