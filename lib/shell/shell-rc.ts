// The shell integration we inject, after the user's own rc: OSC 7 (cwd), OSC 133 D (exit code)
// + A before each prompt, B once the primary prompt is drawn (the shell reads a command), the
// continuation mark (133;A;k=s) at PS2, and OSC 633 E (the command line) + 133 C when a command
// starts. Every mark carries the session's nonce, which lives in an unexported shell variable,
// so programs cannot print valid marks.
// A command line a --secret was typed into is kept out of the history file: tuiwright creates
// the file $TUIWRIGHT_HISTORY_FLAG names (read once, then unset), and the hook that sees the
// line go into history takes it out and removes the file (bash: deleted from the list at the
// next prompt; zsh: zshaddhistory returns 2, kept for this session only; fish: deleted after
// it ran). The session's own history (Up) may still show it; its output is masked.
//
// The marks must survive the user: a command that sets PS1/PROMPT/fish_prompt, adds to
// PROMPT_COMMAND or replaces a hook must not silence them (an `exec` waits for B, and a block
// ends at D). So no mark depends on one place alone:
// - bash: PS1 carries D+A in front and B at the end, and our PROMPT_COMMAND entries put them
//   back whenever the user's PS1/PS2/PS0 lost them (the last entry runs after the user's own
//   prompt code, which often rebuilds PS1). D from PROMPT_COMMAND when our entry runs first;
//   else PS1 sends it ($? in a prompt is the command's status whatever PROMPT_COMMAND ran).
// - zsh: B and the continuation mark come from the zle-line-init widget ($CONTEXT says which
//   prompt ZLE reads at), so PROMPT is not involved at all; precmd and zle-line-init put each
//   other (and preexec) back when removed.
// - fish: the fish_prompt event (which fires before fish_prompt is called) wraps the user's
//   fish_prompt again when it was redefined.

export type ShellKind = "bash" | "zsh" | "fish";

export function bashRc(nonce: string): string {
  const tw = `tw=${nonce}`;
  // Written with String.raw: the backslashes are the shell's. No forks on the command path.
  return String.raw`# tuiwright shell integration (generated). Your own ~/.bashrc runs first.
__tw_flag=$TUIWRIGHT_HISTORY_FLAG; unset TUIWRIGHT_HISTORY_FLAG
if [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
__tw_e=$'\e' __tw_a=$'\a'
# D and A (with the cwd) when our first PROMPT_COMMAND entry did not send them (__tw_pending is
# set by PS0 when a command starts, cleared by __tw_precmd): $? here is the command's status.
__tw_DA='\[${"$"}{__tw_pending:+${"$"}{__tw_e}]7;file://${"$"}{HOSTNAME:-localhost}${"$"}{PWD}${"$"}{__tw_a}${"$"}{__tw_e}]133;D;$?;${tw}${"$"}{__tw_a}${"$"}{__tw_e}]133;A;${tw}${"$"}{__tw_a}}\]'
__tw_B='\[\e]133;B;${tw}\a\]'
__tw_S='\[\e]133;A;k=s;${tw}\a\]'
__tw_C='\e]133;C;p=${"$"}{__tw_pending:=1};${tw}\a'
__tw_pending=1
# The command line from the history list without a fork (bash 5.2 forks for every $(…)):
# \`history 1\` written into a file of our rc directory and read back. The file is never
# truncated before it is written (ext4 flushes a file truncated and rewritten when it is
# closed: ~0.2 ms), so a NUL ends the line; it is emptied right after (the line may hold a
# secret). Without the directory, the fork.
__tw_line_file=${"$"}{__tw_flag:+${"$"}{__tw_flag%/*}/command-line}
__tw_command_line() {
  local line
  if [[ -n $__tw_line_file ]] && { HISTTIMEFORMAT= builtin history 1; builtin printf '\0'; } 2>/dev/null 1<>"$__tw_line_file" &&
    IFS= builtin read -r -d '' line 2>/dev/null <"$__tw_line_file"; then
    : 2>/dev/null >|"$__tw_line_file"
    while [[ $line == *$'\n' ]]; do line=${"$"}{line%$'\n'}; done
  else
    line=$(HISTTIMEFORMAT= builtin history 1)
  fi
  [[ $line =~ ^[[:space:]]*[0-9]+[*[:space:]]+(.*)$ ]] && line=${"$"}{BASH_REMATCH[1]}
  line=${"$"}{line//\\/\\\\}; line=${"$"}{line//;/\\x3b}
  printf '\e]633;E;%s;${tw}\a' "$line"
  if [[ -n $__tw_flag && -e $__tw_flag ]]; then builtin history -d -1 2>/dev/null; command rm -f -- "$__tw_flag"; fi
}
# First in PROMPT_COMMAND: the finished command's name, cwd, exit code and the new prompt.
__tw_precmd() {
  local ec=$?
  # Only an entry of its own sees the command's status (a user who prepended to our entry made
  # it run after their code): then PS1 sends D.
  [[ ${"$"}{PROMPT_COMMAND[0]} == __tw_precmd || ${"$"}{PROMPT_COMMAND[0]} == "__tw_precmd; "* ]] || return $ec
  __tw_command_line
  printf '\e]7;file://%s%s\a\e]133;D;%s;${tw}\a\e]133;A;${tw}\a' "${"$"}{HOSTNAME:-localhost}" "$PWD" "$ec"
  __tw_pending=
  __tw_discard
  return $ec
}
# Input nobody read while the command ran (a terminal's reply to a program that stopped
# reading, keys sent to a program that had exited) must not become the next command line.
__tw_discard() {
  while read -r -s -t 0; do read -r -s -n 1 -t 1 _; done
}
# Last in PROMPT_COMMAND, after the user's prompt code: the marks back into PS1/PS2/PS0, and
# our entries back into PROMPT_COMMAND.
__tw_postcmd() {
  local ec=$? ps
  [[ -n ${"$"}{__tw_pending-} ]] && __tw_command_line && __tw_discard
  if [[ $PS1 != "$__tw_DA"*"$__tw_B" ]]; then
    ps=${"$"}{PS1//"$__tw_DA"/}; ps=${"$"}{ps//"$__tw_B"/}
    PS1=$__tw_DA$ps$__tw_B
  fi
  [[ $PS2 == *"$__tw_S" ]] || PS2=${"$"}{PS2//"$__tw_S"/}$__tw_S
  [[ $PS0 == "$__tw_C"* ]] || PS0=$__tw_C${"$"}{PS0//"$__tw_C"/}
  __tw_hooks
  return $ec
}
# PROMPT_COMMAND as an array (bash 5.1+): each entry sees the command's $?, and a user's
# PROMPT_COMMAND='…' replaces entry 0 only, so our last entry survives and puts the first back.
__tw_hooks() {
  if (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )); then
    local -a rest=()
    local entry
    for entry in "${"$"}{PROMPT_COMMAND[@]}"; do
      entry=${"$"}{entry//__tw_precmd; /}; entry=${"$"}{entry//__tw_precmd/}; entry=${"$"}{entry//__tw_postcmd/}
      [[ $entry == *[![:space:]\;]* ]] && rest+=("$entry")
    done
    [[ ${"$"}{PROMPT_COMMAND[0]-} == __tw_precmd && ${"$"}{PROMPT_COMMAND[-1]} == __tw_postcmd && ${"$"}{#PROMPT_COMMAND[@]} == $((${"$"}{#rest[@]} + 2)) ]] ||
      PROMPT_COMMAND=(__tw_precmd "${"$"}{rest[@]}" __tw_postcmd)
  elif [[ $PROMPT_COMMAND != __tw_precmd\;* || $PROMPT_COMMAND != *\;\ __tw_postcmd ]]; then
    local user=${"$"}{PROMPT_COMMAND//__tw_precmd; /}
    user=${"$"}{user//; __tw_postcmd/}
    PROMPT_COMMAND="__tw_precmd; ${"$"}{user:+$user; }__tw_postcmd"
  fi
}
__tw_hooks
PS1=$__tw_DA$PS1$__tw_B
PS2=$PS2$__tw_S
PS0=$__tw_C${"$"}{PS0:-}
`;
}

export function zshRc(nonce: string): string {
  const tw = `tw=${nonce}`;
  return String.raw`# tuiwright shell integration (generated). Your own .zshrc runs first.
__tw_flag=$TUIWRIGHT_HISTORY_FLAG; unset TUIWRIGHT_HISTORY_FLAG
__tw_home="${"$"}{TUIWRIGHT_USER_ZDOTDIR:-$HOME}"
if [ -f "$__tw_home/.zshrc" ]; then ZDOTDIR="$__tw_home" . "$__tw_home/.zshrc"; fi
zmodload zsh/zleparameter 2>/dev/null
__tw_precmd() {
  local ec=$?
  printf '\e]7;file://%s%s\a' "${"$"}{HOST:-localhost}" "$PWD"
  printf '\e]133;D;%s;${tw}\a\e]133;A;${tw}\a' "$ec"
  # Input nobody read while the command ran (a terminal's reply to a program that stopped
  # reading, keys sent to a program that had exited) must not become the next command line.
  local c
  while read -t 0 -k 1 -s c 2>/dev/null; do :; done
  # Our line-init widget back if the user's own replaced it (theirs still runs, from ours).
  [[ ${"$"}{widgets[zle-line-init]-} == user:__tw_line_init ]] || __tw_wrap_line_init
  return $ec
}
__tw_preexec() {
  local line=${"$"}{1//\\/\\\\}
  line=${"$"}{line//;/\\x3b}
  printf '\e]633;E;%s;${tw}\a\e]133;C;${tw}\a' "$line"
}
# Called by ZLE once the prompt is drawn: B at the primary prompt, the continuation mark at
# PS2 ($CONTEXT: start, cont, select, vared). PROMPT/PS2 may be anything.
__tw_line_init() {
  case $CONTEXT in
    start) printf '\e]133;B;${tw}\a' ;;
    cont) printf '\e]133;A;k=s;${tw}\a' ;;
  esac
  (( ${"$"}{precmd_functions[(I)__tw_precmd]} )) || precmd_functions=(__tw_precmd $precmd_functions)
  (( ${"$"}{preexec_functions[(I)__tw_preexec]} )) || preexec_functions+=(__tw_preexec)
  (( ${"$"}{+widgets[__tw_user_line_init]} )) && zle __tw_user_line_init -- "$@"
  return 0
}
__tw_wrap_line_init() {
  zle -D __tw_user_line_init 2>/dev/null
  [[ -n ${"$"}{widgets[zle-line-init]-} ]] && zle -A zle-line-init __tw_user_line_init
  zle -N zle-line-init __tw_line_init
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
__tw_wrap_line_init
`;
}

export function fishRc(nonce: string): string {
  // fish 3 emits no OSC 133 of its own; its preexec/postexec/prompt events carry ours. The
  // user's config.fish has already run (this is sourced with --init-command).
  const tw = `tw=${nonce}`;
  return String.raw`# tuiwright shell integration (generated)
set -g __tw_flag $TUIWRIGHT_HISTORY_FLAG; set -e TUIWRIGHT_HISTORY_FLAG
function __tw_preexec --on-event fish_preexec
    printf '\e]633;E;%s;${tw}\a\e]133;C;${tw}\a' (string replace -a -- ';' '\\x3b' (string replace -a -- '\\' '\\\\' $argv[1]))
end
function __tw_postexec --on-event fish_postexec
    set -l ec $status
    if test -n "$__tw_flag" -a -e "$__tw_flag"
        builtin history delete --exact --case-sensitive -- $argv[1] >/dev/null 2>&1
        command rm -f -- $__tw_flag
    end
    printf '\e]7;file://%s%s\a' $hostname $PWD
    printf '\e]133;D;%s;${tw}\a' $ec
end
# Fires before fish calls fish_prompt: a fish_prompt the user (re)defined is wrapped again.
function __tw_prompt --on-event fish_prompt
    printf '\e]7;file://%s%s\a\e]133;A;${tw}\a' $hostname $PWD
    functions fish_prompt | string match -q '*__tw_user_prompt*'; or __tw_wrap_prompt
end
function __tw_wrap_prompt
    functions -e __tw_user_prompt
    functions -q fish_prompt; and functions -c fish_prompt __tw_user_prompt
    function fish_prompt
        functions -q __tw_user_prompt; and __tw_user_prompt
        printf '\e]133;B;${tw}\a'
    end
end
__tw_wrap_prompt
`;
}
