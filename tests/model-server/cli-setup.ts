// Pointing each AI coding CLI at the model server, offline: a private HOME with the CLI's own
// config files, environment variables for base URL and key, and every start-up network call
// we know of (update checks, telemetry, auth) switched off. Used by the tests and the bench;
// users can copy what one entry writes.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const AI_CLIS = ["pi", "codex", "claude", "opencode", "gemini"] as const;
export type AiCli = (typeof AI_CLIS)[number];

/** Where scripts/install-ai-clis.sh puts the CLIs. */
export function aiClisBin(): string {
  const base = process.env.TUIWRIGHT_AI_CLIS ?? join(process.env.XDG_DATA_HOME ?? join(process.env.HOME ?? "", ".local/share"), "tuiwright/ai-clis");
  return join(base, "node_modules/.bin");
}

export function installed(cli: AiCli): boolean {
  return existsSync(join(aiClisBin(), cli));
}

export type CliSetup = {
  /** Environment for the CLI (and for tuiwright, which passes it on to spawns and `ask`). */
  env: Record<string, string>;
  /** The interactive program to spawn. */
  argv: string[];
  /** The directory the CLI works in (trusted where the CLI asks). */
  cwd: string;
};

const MODEL = "tuiwright-model";

/** Writes the CLI's config under `dir` (its HOME) and returns how to start it against `url`. */
export function setupCli(cli: AiCli, url: string, dir: string): CliSetup {
  const home = resolve(dir, "home");
  const cwd = resolve(dir, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const write = (path: string, text: string) => {
    mkdirSync(join(home, path, ".."), { recursive: true });
    writeFileSync(join(home, path), text);
  };
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    PATH: `${aiClisBin()}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    NO_UPDATE_NOTIFIER: "1",
  };
  switch (cli) {
    case "pi":
      write(".pi/agent/models.json", JSON.stringify({
        providers: { tuiwright: { baseUrl: `${url}/v1`, api: "openai-completions", apiKey: "tuiwright", compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: MODEL }] } },
      }));
      // No retries: a failed request ends the turn with the CLI's error at once (tests wait on it).
      write(".pi/agent/settings.json", JSON.stringify({ defaultProvider: "tuiwright", defaultModel: MODEL, enableInstallTelemetry: false, retry: { enabled: false } }));
      Object.assign(env, { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" });
      return { env, cwd, argv: ["pi", "--offline", "--no-extensions", "--no-context-files", "--no-skills"] };
    case "codex":
      write(".codex/config.toml", [
        `model = "${MODEL}"`,
        `model_provider = "tuiwright"`,
        `approval_policy = "on-request"`,
        `sandbox_mode = "read-only"`,
        `check_for_update_on_startup = false`,
        ``,
        `[model_providers.tuiwright]`,
        `name = "tuiwright"`,
        `base_url = "${url}/v1"`,
        `wire_api = "responses"`,
        `env_key = "TUIWRIGHT_MODEL_KEY"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        ``,
        // Its own question tool (request_user_input) in the default mode too, not only in plan mode.
        `[features]`,
        `default_mode_request_user_input = true`,
        `[analytics]`,
        `enabled = false`,
        `[feedback]`,
        `enabled = false`,
        `[projects."${cwd}"]`,
        `trust_level = "trusted"`,
        ``,
      ].join("\n"));
      Object.assign(env, { CODEX_HOME: join(home, ".codex"), TUIWRIGHT_MODEL_KEY: "tuiwright" });
      // The alternate screen keeps the transcript on screen (inline mode scrolls it away).
      return { env, cwd, argv: ["codex", "-c", 'tui.alternate_screen="always"'] };
    case "claude":
      // An API key from the environment skips the login screen; onboarding and the folder
      // trust prompt are answered in ~/.claude.json as a user who has run it once would have.
      write(".claude.json", JSON.stringify({
        hasCompletedOnboarding: true, theme: "dark", autoUpdates: false,
        customApiKeyResponses: { approved: ["tuiwright-key"], rejected: [] },
        projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
      }));
      // Ask before running tools (the default is "auto", which decides by itself).
      write(".claude/settings.json", JSON.stringify({ permissions: { defaultMode: "default" }, autoUpdates: false }));
      Object.assign(env, {
        ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "tuiwright-key", ANTHROPIC_MODEL: "claude-sonnet-4-5", ANTHROPIC_SMALL_FAST_MODEL: "claude-haiku-4-5",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1", DISABLE_TELEMETRY: "1", DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_MAX_RETRIES: "0", // a failed request ends the turn with its error at once
      });
      return { env, cwd, argv: ["claude"] };
    case "opencode":
      write(".config/opencode/opencode.json", JSON.stringify({
        $schema: "https://opencode.ai/config.json", autoupdate: false, share: "disabled",
        model: `tuiwright/${MODEL}`, small_model: `tuiwright/${MODEL}`,
        permission: { bash: "ask", edit: "ask" },
        provider: { tuiwright: { npm: "@ai-sdk/openai-compatible", name: "tuiwright", options: { baseURL: `${url}/v1`, apiKey: "tuiwright" }, models: { [MODEL]: { name: MODEL } } } },
      }));
      Object.assign(env, { OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_SHARE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_LSP_DOWNLOAD: "1" });
      return { env, cwd, argv: ["opencode"] };
    case "gemini":
      write(".gemini/settings.json", JSON.stringify({
        security: { auth: { selectedType: "gemini-api-key" } }, privacy: { usageStatisticsEnabled: false },
        // maxAttempts 1: a failed request ends the turn with its error at once (no backoff retries).
        general: { disableAutoUpdate: true, disableUpdateNag: true, maxAttempts: 1 }, telemetry: { enabled: false }, model: { name: "gemini-2.5-flash" },
      }));
      Object.assign(env, { GEMINI_API_KEY: "tuiwright", GOOGLE_GEMINI_BASE_URL: url, GEMINI_CLI_TRUST_WORKSPACE: "true", GEMINI_MODEL: "gemini-2.5-flash" });
      return { env, cwd, argv: ["gemini"] };
  }
}
