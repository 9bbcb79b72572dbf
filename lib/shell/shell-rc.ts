// The shell integration we inject: after the user's own rc, hooks that print OSC 7 (cwd) and
// OSC 133 D (exit code) + A before each prompt, B at the end of the prompt, and OSC 633 E (the
// command line) + 133 C when a command starts. Every mark carries the session's nonce, which
// lives in an unexported shell variable, so programs cannot print valid marks.

export type ShellKind = "bash" | "zsh";

const ESCAPE_FUNCTION = `__tw_esc() { local s="$1"; s="\${s//\\\\/\\\\\\\\}"; s="\${s//;/\\\\x3b}"; printf '%s' "$s"; }`;

export function bashRc(nonce: string): string {
  return `# tuiwright shell integration (generated). Your own ~/.bashrc runs first.
if [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
${ESCAPE_FUNCTION}
__tw_precmd() {
  local ec=$?
  printf '\\033]7;file://%s%s\\007' "\${HOSTNAME:-localhost}" "$PWD"
  printf '\\033]133;D;%s;tw=${nonce}\\007\\033]133;A;tw=${nonce}\\007' "$ec"
  return $ec
}
__tw_preexec() {
  local line
  line=$(HISTTIMEFORMAT= builtin history 1)
  [[ $line =~ ^[[:space:]]*[0-9]+[*[:space:]]+(.*)$ ]] && line=\${BASH_REMATCH[1]}
  printf '\\033]633;E;%s;tw=${nonce}\\007\\033]133;C;tw=${nonce}\\007' "$(__tw_esc "$line")"
}
PROMPT_COMMAND="__tw_precmd\${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
PS0='$(__tw_preexec)'"\${PS0:-}"
PS1="\${PS1}"'\\[\\033]133;B;tw=${nonce}\\007\\]'
`;
}

export function zshRc(nonce: string): string {
  return `# tuiwright shell integration (generated). Your own .zshrc runs first.
__tw_home="\${TUIWRIGHT_USER_ZDOTDIR:-$HOME}"
if [ -f "$__tw_home/.zshrc" ]; then ZDOTDIR="$__tw_home" . "$__tw_home/.zshrc"; fi
${ESCAPE_FUNCTION}
__tw_precmd() {
  local ec=$?
  printf '\\033]7;file://%s%s\\007' "\${HOST:-localhost}" "$PWD"
  printf '\\033]133;D;%s;tw=${nonce}\\007\\033]133;A;tw=${nonce}\\007' "$ec"
}
__tw_preexec() { printf '\\033]633;E;%s;tw=${nonce}\\007\\033]133;C;tw=${nonce}\\007' "$(__tw_esc "$1")"; }
# zsh's "missing newline" marker and its carriage returns are printed before precmd, so they
# would land in the block's output: a driven shell does without them.
unsetopt prompt_sp prompt_cr
typeset -ga precmd_functions preexec_functions
precmd_functions=(__tw_precmd $precmd_functions)
preexec_functions+=(__tw_preexec)
PS1="\${PS1}%{$(printf '\\033]133;B;tw=${nonce}\\007')%}"
`;
}
