// Every effect the plugin has (host client, network, clock, disk, ledger), injected so tests control them.

type LogLevel = "debug" | "info" | "warn" | "error"

export type ToastVariant = "info" | "success" | "warning" | "error"

/** The slice of opencode's v1 SDK client the plugin uses. SDK calls resolve with `{ error }`, never throw. */
export interface HostClient {
  session: {
    prompt(options: {
      path: { id: string }
      body: {
        parts: Array<{ type: "text"; text: string; synthetic?: boolean; ignored?: boolean }>
        agent?: string
        model?: { providerID: string; modelID: string }
        noReply?: boolean
      }
    }): Promise<{ data?: unknown; error?: unknown } | undefined>
    get(options: { path: { id: string } }): Promise<{ data?: { parentID?: string }; error?: unknown } | undefined>
    create(options: {
      body: { parentID?: string; title?: string }
    }): Promise<{ data?: { id?: string }; error?: unknown } | undefined>
    abort(options: { path: { id: string } }): Promise<{ error?: unknown } | undefined>
    delete(options: { path: { id: string } }): Promise<{ error?: unknown } | undefined>
    /** One stored message with its parts; undo reads the user's own text from it. opencode 1 only. */
    message?(options: {
      path: { id: string; messageID: string }
    }): Promise<{ data?: unknown; error?: unknown } | undefined>
    /** Moves the session's revert point (what undo and redo do); opencode 1 only. */
    revert?(options: {
      path: { id: string }
      body: { messageID: string }
    }): Promise<{ data?: unknown; error?: unknown } | undefined>
    unrevert?(options: { path: { id: string } }): Promise<{ data?: unknown; error?: unknown } | undefined>
  }
  config: {
    /** Every provider the user can call, with its models; its options hold API keys, so it is never logged. */
    providers(): Promise<{ data?: { providers?: unknown }; error?: unknown } | undefined>
  }
  tui: {
    showToast(options: {
      body: { title?: string; message: string; variant: ToastVariant; duration?: number }
    }): Promise<{ error?: unknown } | undefined>
    /**
     * An event for the TUI: a command it runs (`tui.command.execute`, e.g. `input.select.all`), or text put
     * into its prompt box at the cursor (`tui.prompt.append`). opencode 1 only; nothing happens without a TUI.
     */
    publish?(options: {
      body:
        | { type: "tui.command.execute"; properties: { command: string } }
        | { type: "tui.prompt.append"; properties: { text: string } }
    }): Promise<{ data?: unknown; error?: unknown } | undefined>
  }
  app: {
    log(options: {
      body: { service: string; level: LogLevel; message: string; extra?: Record<string, unknown> }
    }): Promise<{ error?: unknown } | undefined>
  }
  /**
   * opencode 2 only: one stateless model call, no session (`ctx.generate.text`). Where it exists, the opencode
   * route judges through it instead of judge sessions.
   */
  generate?(input: { model: { providerID: string; modelID: string }; prompt: string }): Promise<{ text: string }>
}

/** Every effect the plugin has, injected so tests control time, network, disk and the host. */
export interface Deps {
  client: HostClient
  fetch: (url: string, init: RequestInit) => Promise<Response>
  now: () => number
  sleep: (ms: number) => Promise<void>
  random: () => number
  readText: (path: string) => Promise<string | undefined>
  /**
   * Appends text in one write (O_APPEND), so lines from several processes never interleave; a new file gets
   * `mode` (0o600 for a file only its owner may read).
   */
  appendText: (path: string, text: string, mode?: number) => Promise<void>
  ensureDir: (path: string) => Promise<void>
  /** Whether a path exists on disk; the doc-pull check asks it to recognise the project's own modules. */
  fileExists: (path: string) => boolean
  /** A path with every link resolved (realpath); undefined when it does not exist. */
  realPath: (path: string) => Promise<string | undefined>
  /** The first `max` bytes of a regular file; undefined for a folder, a device, a pipe or a missing file. */
  readHead: (path: string, max: number) => Promise<Uint8Array | undefined>
  writeStderr: (text: string) => void
  /** `run` when opencode runs one prompt and exits at the first idle; `serve` for the TUI and `opencode serve`. */
  mode: "run" | "serve"
  /** Where opencode writes its log files, for messages that point there. */
  logDir: string
  ledger: Ledger
  /** Sets the exit code the process ends with, when opencode does not set one itself (`opencode run`). */
  failExit: () => void
}

export interface TurnLedger {
  /** The real user message that opened the turn; synthetic messages never open one. */
  userMessageID: string
  /** Notes injected in this turn. */
  depth: number
  /** Claims already flagged in this turn: an unfixed claim never fires the cascade again. */
  flaggedClaims: Set<string>
}

export interface Ledger {
  /** Claims a reply for judging; false when another instance (or an earlier idle) already did. */
  claimReply(messageID: string): boolean
  /** Claims the answer to one revert event; false when another instance already answers it. */
  claimRevert(eventID: string): boolean
  turn(sessionID: string): TurnLedger | undefined
  openTurn(sessionID: string, userMessageID: string): void
  forget(sessionID: string): void
}

/** One judge request as the token log writes it (`RFE_JUDGE_LOG`). */
export interface TokenLogLine {
  time: string
  model: string
  /** How many claims the request held: 1, or the size of a batch. */
  claims: number
  attempt: number
  outcome: string
  status?: number
  latency_ms: number
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  cached_tokens?: number
}

/** Something the plugin told the user: in a toast, or in a notice under a reply. */
export interface Warned {
  message: string
  at: number
  how: "toast" | "notice"
}

/** Owns what the user and the logs hear from the plugin: log lines, toasts, failure reports, startup notices, the token log. */
export interface Notifier {
  log(level: LogLevel, message: string, extra?: Record<string, unknown>): void
  /** A toast for people: titled once, the message in plain words, at most two lines of opencode's toast box. */
  toast(message: string, variant?: ToastVariant): void
  /** A toast on a session's budget: each key once, and advice budgeted apart from warnings. */
  toastOnce(budget: Set<string>, key: string, message: string, variant?: ToastVariant): void
  /**
   * Something the user should know once per process: one log line, and a toast, or (`notice`) the message
   * returned the one time it is told, for the caller to say under the reply (which model judges, say).
   */
  tellOnce(key: string, message: string, how?: "toast" | "notice"): string | undefined
  /**
   * Holds every toast until the returned release is called (and every other hold is released): the toast box
   * opens over the top of the conversation, so nothing may cover a notice or a flagged reply as it appears.
   */
  hold(): () => void
  /** A hold that releases itself after `ms`. */
  holdFor(ms: number): void
  /**
   * A failure: told at once, and again at most every ten minutes while it lasts, so a judge that stays broken
   * is not forgotten after its first telling. `render` gets the time the failure began. A toast, a log line, or
   * (`notice`) neither: the message is returned, for the caller to show under the reply it concerns, and kept
   * for `/ragfaith`. Returns the message when it is told now, undefined while it waits to be told again.
   */
  reportFailure(
    kind: string,
    render: string | ((since: number) => string),
    how?: "toast" | "log" | "notice",
  ): string | undefined
  /**
   * Takes opencode's own toast off the screen at once (a toast lasting 1 ms replaces it): the red error toast
   * opencode shows for a failed judge session, which the plugin tells in a notice of its own.
   */
  dismissToast(): void
  clearFailures(healed: (kind: string) => boolean): void
  /** The configuration notices, the one that stops judging first, told when the first session appears. */
  showStartupNotice(): void
  tokenLog(line: TokenLogLine): void
  /** The flagged-claims report of `opencode run`, printed to stderr when the token log goes there. */
  printReport(text: string): void
  /** Where opencode keeps its log, in the words a message can point to. */
  readonly logPlace: string
  /**
   * The last few toasts and notices, newest last, as they read: what a toast told, or a notice the transcript
   * has since scrolled away, stays findable in `/ragfaith`.
   */
  warned(): ReadonlyArray<Warned>
}
