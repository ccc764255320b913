// What the plugin shows or logs about failures: the judge key cut out by value, URL queries and secrets redacted.
import { clip } from "../../base/text.ts"
import { redactSecrets } from "./redact.ts"
import { REDACTED } from "./values.ts"

/** Shorter judge keys are hidden nowhere: replacing a word-sized "key" would garble ordinary text. */
const MIN_HIDDEN_KEY_CHARS = 8

const ERROR_MESSAGE_CHARS = 300

/**
 * The judge key is no shape redaction knows, and an endpoint or the agent could echo it: it is cut out by
 * value wherever the plugin shows or logs text. One rule for every output.
 */
export function hideKey(text: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= MIN_HIDDEN_KEY_CHARS ? text.split(apiKey).join(REDACTED) : text
}

/** Keeps keys and URL credentials out of anything shown or logged about a failure. */
export function scrubError(message: string, apiKey: string | undefined): string {
  const text = hideKey(message, apiKey).replace(/(https?:\/\/[^\s?#]+)[?#][^\s]*/g, "$1")
  return clip(redactSecrets(text), ERROR_MESSAGE_CHARS)
}
