// Reading values of unknown shape: what hooks, events and answers hand the plugin is never trusted to be typed.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** Any value as a record: the loose payloads of hooks and events are read field by field from it. */
export function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {}
}

/** A non-empty string, or undefined: ids and names in opencode's payloads are read through it. */
export const textOf = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined

export function stringArg(args: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = args[key]
    if (typeof value === "string" && value.trim()) return value.trim()
  }
  return undefined
}
