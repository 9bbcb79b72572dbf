// The shell integration we inject: after the user's own rc, hooks that print OSC 7 (cwd) and
// OSC 133 D (exit code) + A before each prompt, B at the end of the prompt, and OSC 633 E (the
// command line) + 133 C when a command starts. Every mark carries the session's nonce, which
// lives in an unexported shell variable, so programs cannot print valid marks.
// A command line a --secret was typed into is kept out of the history file: tuiwright creates
// the file $TUIWRIGHT_HISTORY_FLAG names (read once, then unset), and the hook that sees the
// line go into history takes it out and removes the file (bash: deleted from the list at the
// next prompt; zsh: zshaddhistory returns 2, kept for this session only; fish: deleted after
// it ran). The session's own history (Up) may still show it; its output is masked.

export type ShellKind = "bash" | "zsh" | "fish";

export function bashRc(nonce: string): string {
  // No forks on the command path: PS0 prints the start mark as it is; the command line (for
  // commands typed by hand) is read from history at the next prompt, inside the block.
  return `# tuiwright shell integration (generated). Your own ~/.bashrc runs first.
__tw_flag=$TUIWRIGHT_HISTORY_FLAG; unset TUIWRIGHT_HISTORY_FLAG
if [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
__tw_precmd() {
  local ec=$? line
  line=$(HISTTIMEFORMAT= builtin history 1)
  [[ $line =~ ^[[:space:]]*[0-9]+[*[:space:]]+(.*)$ ]] && line=\${BASH_REMATCH[1]}
  line=\${line//\\\\/\\\\\\\\}; line=\${line//;/\\\\x3b}
  printf '\\033]633;E;%s;tw=${nonce}\\007' "$line"
  if [[ -n $__tw_flag && -e $__tw_flag ]]; then builtin history -d -1 2>/dev/null; command rm -f -- "$__tw_flag"; fi
  printf '\\033]7;file://%s%s\\007' "\${HOSTNAME:-localhost}" "$PWD"
  printf '\\033]133;D;%s;tw=${nonce}\\007\\033]133;A;tw=${nonce}\\007' "$ec"
  return $ec
}
PROMPT_COMMAND="__tw_precmd\${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
PS0='\\033]133;C;tw=${nonce}\\007'"\${PS0:-}"
PS1="\${PS1}"'\\[\\033]133;B;tw=${nonce}\\007\\]'
PS2="\${PS2}"'\\[\\033]133;A;k=s;tw=${nonce}\\007\\]'
`;
}

export function zshRc(nonce: string): string {
  return `# tuiwright shell integration (generated). Your own .zshrc runs first.
__tw_flag=$TUIWRIGHT_HISTORY_FLAG; unset TUIWRIGHT_HISTORY_FLAG
__tw_home="\${TUIWRIGHT_USER_ZDOTDIR:-$HOME}"
if [ -f "$__tw_home/.zshrc" ]; then ZDOTDIR="$__tw_home" . "$__tw_home/.zshrc"; fi
__tw_precmd() {
  local ec=$?
  printf '\\033]7;file://%s%s\\007' "\${HOST:-localhost}" "$PWD"
  printf '\\033]133;D;%s;tw=${nonce}\\007\\033]133;A;tw=${nonce}\\007' "$ec"
}
__tw_preexec() {
  local line=\${1//\\\\/\\\\\\\\}
  line=\${line//;/\\\\x3b}
  printf '\\033]633;E;%s;tw=${nonce}\\007\\033]133;C;tw=${nonce}\\007' "$line"
}
# zsh's "missing newline" marker and its carriage returns are printed before precmd, so they
# would land in the block's output: a driven shell does without them.
unsetopt prompt_sp prompt_cr
__tw_addhistory() {
  if [[ -n $__tw_flag && -e $__tw_flag ]]; then command rm -f -- "$__tw_flag"; return 2; fi
  return 0
}
typeset -ga precmd_functions preexec_functions zshaddhistory_functions
precmd_functions=(__tw_precmd $precmd_functions)
preexec_functions+=(__tw_preexec)
zshaddhistory_functions=(__tw_addhistory $zshaddhistory_functions)
PS1="\${PS1}%{$(printf '\\033]133;B;tw=${nonce}\\007')%}"
PS2="\${PS2}%{$(printf '\\033]133;A;k=s;tw=${nonce}\\007')%}"
`;
}

export function fishRc(nonce: string): string {
  // fish 3 emits no OSC 133 of its own; its preexec/postexec/prompt events carry ours. The
  // user's config.fish has already run (this is sourced with --init-command).
  return `# tuiwright shell integration (generated)
set -g __tw_flag $TUIWRIGHT_HISTORY_FLAG; set -e TUIWRIGHT_HISTORY_FLAG
function __tw_preexec --on-event fish_preexec
    printf '\\e]633;E;%s;tw=${nonce}\\a\\e]133;C;tw=${nonce}\\a' (string replace -a -- ';' '\\\\x3b' (string replace -a -- '\\\\' '\\\\\\\\' $argv[1]))
end
function __tw_postexec --on-event fish_postexec
    set -l ec $status
    if test -n "$__tw_flag" -a -e "$__tw_flag"
        builtin history delete --exact --case-sensitive -- $argv[1] >/dev/null 2>&1
        command rm -f -- $__tw_flag
    end
    printf '\\e]7;file://%s%s\\a' $hostname $PWD
    printf '\\e]133;D;%s;tw=${nonce}\\a' $ec
end
function __tw_prompt --on-event fish_prompt
    printf '\\e]7;file://%s%s\\a\\e]133;A;tw=${nonce}\\a' $hostname $PWD
end
functions -c fish_prompt __tw_user_prompt
function fish_prompt
    __tw_user_prompt
    printf '\\e]133;B;tw=${nonce}\\a'
end
`;
}
