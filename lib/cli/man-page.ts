// `tuiwright man`: the tuiwright(1) manual page in roff, generated from the same help entries,
// global flags, topics and exit codes as `help` and docs/CLI.md.
import type { GlobalFlag } from "./completion.ts";
import type { FlagSpec } from "./flags.ts";
import type { HelpEntry } from "./help-entries.ts";

/** Text for roff: backslashes escaped, hyphens as \-, non-ASCII as \[uXXXX], and a line never starting with . or '. */
function roff(text: string): string {
  return text
    .replaceAll("\\", "\\e")
    .replaceAll("-", "\\-")
    // Plain ASCII out: groff reads bytes, so other characters go as \[uXXXX].
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`)
    .split("\n")
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join("\n");
}

function flagTerm(flag: { name: string; aliases?: string[]; value?: string; type?: FlagSpec["type"] }): string {
  const names = [flag.name, ...(flag.aliases ?? [])].map((n) => `\\fB${roff(n)}\\fR`).join(", ");
  const takesValue = flag.type ? flag.type !== "bool" : flag.value !== undefined;
  return takesValue ? `${names} \\fI${roff(flag.value ?? flag.type!.toUpperCase())}\\fR` : names;
}

export function manPage(input: {
  version: string;
  entries: HelpEntry[];
  globals: GlobalFlag[];
  topics: Record<string, string>;
  exitCodes: Record<number, string>;
}): string {
  const out = [
    `.TH TUIWRIGHT 1 "" "tuiwright ${roff(input.version)}" "User Commands"`,
    ".SH NAME",
    "tuiwright \\- drive terminal programs on pseudo\\-terminals, for agents and CI",
    ".SH SYNOPSIS",
    ".B tuiwright",
    "[\\fIGLOBAL FLAGS\\fR] \\fIVERB\\fR [\\fIFLAGS\\fR] [\\fIARGS\\fR] [\\fB\\-\\-\\fR \\fIPROGRAM\\fR [\\fIARGS\\fR]]",
    ".SH DESCRIPTION",
    roff("tuiwright runs programs on pseudo-terminals under a per-user daemon (started on first use), keeps each screen in a headless terminal, and lets a caller snapshot the screen as text or as an outline with refs, press keys, type, click and wait for screen state without sleeping. Every session is recorded as an asciicast v3 file."),
    ".SH GLOBAL FLAGS",
  ];
  for (const flag of input.globals) out.push(".TP", flagTerm(flag), roff(flag.description));
  out.push(".SH VERBS");
  for (const entry of input.entries) {
    out.push(".SS " + roff(entry.name), ".B tuiwright", roff(entry.usage), ".PP", roff(entry.summary));
    if (entry.flags.length > 0) {
      out.push(".RS");
      for (const flag of entry.flags) out.push(".TP", flagTerm(flag), roff(flag.description + (flag.type === "list" ? " (repeatable)" : "")));
      out.push(".RE");
    }
  }
  for (const [topic, text] of Object.entries(input.topics)) out.push(`.SH ${roff(topic.toUpperCase())}`, ".nf", roff(text), ".fi");
  out.push(".SH EXIT STATUS");
  for (const [code, meaning] of Object.entries(input.exitCodes)) out.push(".TP", `\\fB${code}\\fR`, roff(meaning));
  out.push(
    ".SH ENVIRONMENT",
    ".TP", "\\fBTUIWRIGHT_NS\\fR, \\fBTUIWRIGHT_SESSION\\fR, \\fBTUIWRIGHT_LEASE\\fR", roff("defaults for --ns, --session and --lease"),
    ".TP", "\\fBTUIWRIGHT_SOCKET\\fR", roff("the daemon's socket (default $XDG_RUNTIME_DIR/tuiwright/NS.sock, else /tmp/tuiwright-UID/NS.sock in a 0700 directory)"),
    ".TP", "\\fBXDG_STATE_HOME\\fR, \\fBXDG_CONFIG_HOME\\fR, \\fBXDG_DATA_HOME\\fR", roff("where recordings and logs, user manifests, and downloaded browsers live (under tuiwright/)"),
    ".SH FILES",
    ".TP", roff("~/.local/state/tuiwright/NS/"), roff("recordings (*.cast), shell transcripts and daemon.log"),
    ".TP", roff("~/.config/tuiwright/adapters/*.toml"), roff("user manifests (override the built-in ones by name)"),
    ".SH SEE ALSO",
    roff("tuiwright help VERB, tuiwright agent-context, tuiwright skill; docs/CLI.md and README.md in the source."),
  );
  return `${out.join("\n")}\n`;
}
