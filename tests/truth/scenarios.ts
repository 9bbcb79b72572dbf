// The truth corpus's scenarios: each program, how it is started, and the keys that bring it
// to each labelled state. A step is a CLI verb with its arguments (the session is added);
// `mark(NAME)` puts the marker `truth:NAME` that tests/truth/labels/<cast>.toml labels.
// record.ts plays them to make the casts; click.test.ts plays some of them live.

export type Step = string[];
export type Scenario = {
  /** The cast's file name (tests/truth/casts/<name>.cast) and label file's. */
  name: string;
  /** The program the per-program table counts it under. */
  program: string;
  argv: string[];
  size: [cols: number, rows: number];
  env?: Record<string, string>;
  /** Background processes to start first (htop and top show only these); their pids become
   * "{pids}" (comma-separated) in argv. */
  sleepers?: number;
  steps: Step[];
  /** A command that ends what outlives the session (a multiplexer's server), run after it. */
  cleanup?: string[];
};

export const MARK_PREFIX = "truth:";
export const mark = (name: string): Step => ["mark", `${MARK_PREFIX}${name}`];
/** Generous: the machine is shared, and a loaded one draws slowly. */
const TIMEOUT = ["--timeout", "30000"];
const SETTLE = ["--settled", "400", ...TIMEOUT];
/** Keys, then wait until the screen has been still a while (programs redraw in bursts). */
const keys = (...k: string[]): Step => ["press", ...k, ...SETTLE];
const keysUntil = (text: string, ...k: string[]): Step => ["press", ...k, "--wait-text", text, ...TIMEOUT];
const text = (t: string): Step => ["type", t, ...SETTLE];
const textUntil = (t: string, until: string): Step => ["type", t, "--wait-text", until, ...TIMEOUT];
const waitText = (t: string): Step => ["wait", "--text", t, ...TIMEOUT];
const settle: Step = ["wait", ...SETTLE];

const SHELL_ENV = { PS1: "$ ", PS2: "> " };

export const SCENARIOS: Scenario[] = [
  // ---- vim (tuned) in non-default states
  {
    name: "vim-split", program: "vim", argv: ["vim", "--clean", "-n", "a.txt"], size: [80, 24],
    steps: [
      waitText("alpha"), settle,
      keys(":split b.txt<cr>"), mark("split-top"),
      keys("<C-w>j"), mark("split-bottom"),
      keys(":only<cr>"), keys(":vsplit c.txt<cr>"), mark("vsplit-left"),
      keys("<C-w>l"), mark("vsplit-right"),
      keysUntil("-- INSERT --", "i"), mark("vsplit-right-insert"),
      keys("<esc>"), mark("vsplit-right-normal"),
    ],
  },
  {
    name: "vim-cmdwin", program: "vim", argv: ["vim", "--clean", "-n", "a.txt"], size: [80, 24],
    steps: [
      waitText("alpha"), settle,
      keys(":echo 'one'<cr>"), keys("q", ":"), mark("cmdwin"),
      keysUntil("-- INSERT --", "i"), mark("cmdwin-insert"),
    ],
  },
  {
    name: "vim-terminal", program: "vim", argv: ["vim", "--clean", "-n", "a.txt"], size: [80, 24],
    env: SHELL_ENV,
    steps: [
      waitText("alpha"), settle,
      // A mode message seen first: the manifest then takes an empty mode area as normal mode.
      keysUntil("-- INSERT --", "i"), keys("<esc>"),
      ["press", ":terminal bash --norc --noprofile<cr>", "--wait-regex", "/[$#] $/m", ...TIMEOUT], settle, mark("terminal-job"),
      textUntil("echo hi-$((1+1))\r", "hi-2"), settle, mark("terminal-job-output"),
      keys("<C-w>N"), mark("terminal-normal"),
      keys("<C-w>j"), mark("terminal-other-window"),
    ],
  },
  {
    name: "vim-noshowmode", program: "vim", argv: ["vim", "--clean", "-n", "-c", "set noshowmode", "a.txt"], size: [80, 24],
    steps: [
      waitText("alpha"), settle, mark("start"),
      keys("i"), text("new "), mark("insert-noshowmode"),
      keys("<esc>"), mark("normal-noshowmode"),
      // 'showmode' on long enough to show a mode message, then off again while inserting.
      keys(":set showmode<cr>"), keysUntil("-- INSERT --", "i"), keys("<esc>"), keys(":set noshowmode<cr>"),
      keys("o"), text("more"), mark("insert-after-noshowmode"),
    ],
  },
  {
    name: "vim-visual", program: "vim", argv: ["vim", "--clean", "-n", "a.txt"], size: [80, 24],
    steps: [
      waitText("alpha"), settle,
      keysUntil("-- INSERT --", "A"), mark("insert"),
      keys("<esc>"), mark("normal-after-insert"),
      keys("g", "g"), keysUntil("-- VISUAL --", "v", "l", "l", "j"), settle, mark("visual"),
      keys("<esc>"), keysUntil("-- VISUAL LINE --", "V", "j"), settle, mark("visual-line"),
      keys("<esc>"), keysUntil("E492", ":nosuchcommand<cr>"), mark("error-message"),
    ],
  },
  // ---- less, man, git (tuned)
  {
    name: "less", program: "less", argv: ["less", "long.txt"], size: [80, 24],
    steps: [
      waitText("line 001"), settle, mark("top"),
      text("/line 050"), mark("search-prompt"),
      keysUntil("line 070", "<cr>"), settle, mark("search-hit"),
      textUntil("/zebra\r", "Pattern not found"), settle, mark("not-found"),
      keys("<cr>"), keys("G"), mark("end"),
    ],
  },
  {
    name: "man", program: "man", argv: ["man", "ls"], size: [80, 24], env: { MANWIDTH: "80" },
    steps: [
      waitText("NAME"), settle, mark("page"),
      textUntil("/--sort\r", "--sort"), settle, mark("search-hit"),
    ],
  },
  {
    name: "git-log", program: "git", argv: ["git", "-C", "repo", "log"], size: [80, 24], env: { GIT_PAGER: "less", LESS: "R" },
    steps: [waitText("Start notes"), settle, mark("log")],
  },
  {
    name: "git-diff", program: "git", argv: ["git", "-C", "repo", "diff"], size: [80, 24], env: { GIT_PAGER: "less", LESS: "R" },
    steps: [waitText("brave new"), settle, mark("diff")],
  },
  {
    name: "git-add-p", program: "git", argv: ["git", "-C", "repo", "add", "-p"], size: [80, 24],
    steps: [waitText("Stage this hunk"), settle, mark("hunk-prompt"), text("?"), keys("<cr>"), mark("hunk-help")],
  },
  // ---- htop and top (tuned); they show only the corpus's own sleeping processes
  {
    name: "htop", program: "htop", argv: ["htop", "-d", "100", "-p", "{pids}"], size: [100, 24], sleepers: 4,
    steps: [
      waitText("PID"), settle, mark("list"),
      keys("Down", "Down"), mark("list-down2"),
      keysUntil("Sort by", "F6"), settle, mark("sort-menu"),
      keys("<esc>"), keysUntil("Categories", "F2"), settle, mark("setup"),
      keys("Down"), mark("setup-down"),
      keys("Right"), mark("setup-options-focus"),
      keys("<esc>"), keysUntil("Search:", "F3"), text("sleep"), mark("search"),
    ],
  },
  {
    name: "top", program: "top", argv: ["top", "-d", "100", "-p", "{pids}"], size: [100, 24], sleepers: 3,
    steps: [waitText("PID"), settle, mark("main"), keysUntil("Help for Interactive Commands", "h"), settle, mark("help")],
  },
  // ---- multiplexers
  {
    name: "tmux", program: "tmux", argv: ["tmux", "-L", "truth", "-f", "/dev/null", "new-session", "-s", "t", "bash", "--norc", "--noprofile", ";", "set", "-g", "mouse", "on"],
    size: [80, 24], env: { ...SHELL_ENV, TMUX: "" },
    steps: [
      waitText("$ "), settle,
      keys("C-b", "%"), keys("C-b", '"'), text("echo bottom-right\r"), mark("split3-bottom-right"),
      keys("C-b", "Left"), text("echo left\r"), mark("split3-left"),
      keysUntil("[0/", "C-b", "["), mark("copy-mode"),
      keys("k", "k", "0", "Space", "e"), mark("copy-mode-selecting"),
      keys("q"), keys("C-b", ":"), ["type", "kill-server\r", "--wait-exit", "--timeout", "30000"],
    ],
    cleanup: ["tmux", "-L", "truth", "kill-server"],
  },
  {
    name: "screen", program: "screen", argv: ["screen", "-c", "/dev/null", "-S", "truth", "bash", "--norc", "--noprofile"],
    size: [80, 24], env: { ...SHELL_ENV, STY: "" },
    steps: [
      waitText("$ "), settle,
      keys("C-a", "S"), keys("C-a", "Tab"), keys("C-a", "c"), text("echo lower\r"), mark("split-lower"),
      keys("C-a", "Tab"), mark("split-upper"),
      keys("C-a", "\\"), keys("y"),
    ],
    cleanup: ["screen", "-S", "truth", "-X", "quit"],
  },
  // ---- shells and REPLs
  {
    name: "bash", program: "bash", argv: ["bash", "--norc", "--noprofile"], size: [80, 24], env: SHELL_ENV,
    steps: [
      waitText("$ "), settle, mark("prompt-empty"),
      text("echo typed"), mark("prompt-typed"),
      keys("C-u"), textUntil('read -p "Delete all files? [y/N] " ans\r', "[y/N] "), settle, mark("read-p"),
      text("n\r"), textUntil("select c in red green blue; do echo got $c; break; done\r", "#? "), settle, mark("select"),
      text("2\r"), text("cat\r"), mark("cat-running"),
      text("some words"), mark("cat-typing"),
      keys("C-c"), textUntil("ls /nonexistent\r", "No such file"), settle, mark("prompt-after-error"),
    ],
  },
  {
    name: "zsh", program: "zsh", argv: ["zsh", "-f"], size: [80, 24], env: { PS1: "%% " },
    steps: [
      waitText("% "), settle, mark("prompt-empty"),
      textUntil('read "ans?Continue? "\r', "Continue? "), settle, mark("read"),
      text("y\r"), text("print -n typed-but-not-run"), mark("prompt-typed"),
    ],
  },
  {
    name: "fish", program: "fish", argv: ["fish", "--no-config", "-C", "function fish_prompt; echo -n 'fish> '; end"], size: [80, 24],
    steps: [waitText("fish> "), settle, mark("prompt-empty"), text("echo fish"), mark("prompt-typed")],
  },
  {
    name: "dash", program: "dash", argv: ["dash", "-i"], size: [80, 24], env: SHELL_ENV,
    steps: [waitText("$ "), settle, mark("prompt-empty"), text("read x\r"), mark("read-no-prompt")],
  },
  {
    name: "python3", program: "python3", argv: ["python3", "-q"], size: [80, 24],
    steps: [
      waitText(">>> "), settle, mark("prompt"),
      textUntil("1/0\r", "ZeroDivisionError"), settle, mark("traceback"),
      textUntil("def f():\r", "... "), settle, mark("continuation"),
      textUntil("\r", ">>> "), textUntil('input("Your name? ")\r', "Your name? "), settle, mark("input-call"),
    ],
  },
  {
    name: "pdb", program: "pdb", argv: ["python3", "-m", "pdb", "script.py"], size: [80, 24],
    steps: [waitText("(Pdb) "), settle, mark("prompt"), textUntil("next\r", "(Pdb) "), settle, mark("after-next")],
  },
  {
    name: "node", program: "node", argv: ["node"], size: [80, 24], env: { NODE_NO_READLINE: "", NODE_DISABLE_COLORS: "1" },
    steps: [
      waitText("> "), settle, mark("prompt"),
      textUntil("missingThing.field\r", "ReferenceError"), settle, mark("error"),
    ],
  },
  {
    name: "sqlite3", program: "sqlite3", argv: ["sqlite3"], size: [80, 24],
    steps: [
      waitText("sqlite> "), settle, mark("prompt"),
      textUntil("select * from nope;\r", "no such table"), settle, mark("error"),
      textUntil("select 1,\r", "...> "), settle, mark("continuation"),
    ],
  },
  {
    name: "bc", program: "bc", argv: ["bc", "-q"], size: [80, 24],
    steps: [settle, mark("start"), textUntil("1/0\r", "Divide by zero"), settle, mark("error")],
  },
  {
    name: "ed", program: "ed", argv: ["ed", "-p", "*", "a.txt"], size: [80, 24],
    steps: [waitText("*"), settle, mark("prompt"), textUntil("2p\r", "beta"), settle, mark("printed")],
  },
  // ---- untuned full-screen programs
  {
    name: "mc", program: "mc", argv: ["mc", "-u", "tree", "tree"], size: [80, 24],
    steps: [
      waitText("Quit"), settle, mark("start"),
      keys("Down", "Down"), mark("down2"),
      keys("Tab"), mark("right-panel"),
      keys("F9"), mark("menu-bar"),
      keys("<esc>", "<esc>"), keys("Tab"), keysUntil("Delete", "F8"), settle, mark("delete-dialog"),
      keys("Tab"), mark("delete-dialog-tab"),
      keys("<esc>", "<esc>"),
    ],
  },
  {
    name: "tig", program: "tig", argv: ["tig"], size: [80, 24], env: { GIT_DIR: "repo/.git", GIT_WORK_TREE: "repo" },
    steps: [waitText("Start notes"), settle, mark("main"), keys("Down"), mark("main-down"), keys("<cr>"), mark("diff-split")],
  },
  {
    name: "nano", program: "nano", argv: ["nano", "--ignorercfiles", "notes.txt"], size: [80, 24],
    steps: [
      waitText("^X"), settle, mark("empty-buffer"),
      text("hello nano"), mark("typed"),
      keysUntil("File Name to Write", "C-o"), settle, mark("save-prompt"),
      keys("C-c"), keysUntil("Save modified buffer", "C-x"), settle, mark("exit-prompt"),
    ],
  },
  {
    name: "fzf", program: "fzf", argv: ["fzf"], size: [80, 24], env: { FZF_DEFAULT_COMMAND: "cat fruits.txt", FZF_DEFAULT_OPTS: "" },
    steps: [waitText("8/8"), settle, mark("start"), keys("Up", "Up"), mark("up2"), text("an"), mark("filtered")],
  },
  {
    name: "dialog-menu", program: "dialog", argv: ["dialog", "--menu", "Pick a fruit", "14", "40", "4", "1", "Apple", "2", "Banana", "3", "Cherry", "4", "Date"], size: [80, 24],
    steps: [waitText("Cherry"), settle, mark("menu"), keys("Down"), mark("menu-down"), keys("Tab"), mark("menu-tab")],
  },
  {
    name: "dialog-yesno", program: "dialog", argv: ["dialog", "--yesno", "Really delete everything?", "8", "40"], size: [80, 24],
    steps: [waitText("Really"), settle, mark("yesno"), keys("Tab"), mark("yesno-tab")],
  },
  {
    name: "dialog-input", program: "dialog", argv: ["dialog", "--inputbox", "Your name:", "8", "40", "Ada"], size: [80, 24],
    steps: [waitText("Your name"), settle, mark("inputbox"), keys("Tab"), mark("inputbox-tab")],
  },
  {
    name: "dialog-checklist", program: "dialog", argv: ["dialog", "--checklist", "Toppings", "12", "40", "3", "c", "Cheese", "on", "h", "Ham", "off", "o", "Olives", "off"], size: [80, 24],
    steps: [waitText("Olives"), settle, keys("Down"), keys("Space"), mark("checklist")],
  },
  {
    name: "whiptail-menu", program: "whiptail", argv: ["whiptail", "--menu", "Pick a fruit", "14", "40", "4", "1", "Apple", "2", "Banana", "3", "Cherry", "4", "Date"], size: [80, 24],
    steps: [waitText("Cherry"), settle, mark("menu"), keys("Down"), mark("menu-down"), keys("Tab"), mark("menu-tab")],
  },
  {
    name: "whiptail-yesno", program: "whiptail", argv: ["whiptail", "--yesno", "Really delete everything?", "8", "40"], size: [80, 24],
    steps: [waitText("Really"), settle, mark("yesno"), keys("Tab"), mark("yesno-tab")],
  },
  {
    name: "gdb", program: "gdb", argv: ["gdb", "-q", "-nx", "-tui", "./prog"], size: [80, 24],
    steps: [
      waitText("(gdb)"), settle, text("break square\r"), textUntil("run\r", "Breakpoint 1,"), settle, mark("stopped"),
    ],
  },
  {
    name: "w3m", program: "w3m", argv: ["w3m", "-no-mouse", "page.html"], size: [80, 24], env: { W3M_DIR: "w3m-home" },
    steps: [waitText("Truth page"), settle, mark("page"), keys("Tab"), keys("Tab"), mark("second-link")],
  },
  {
    name: "lynx", program: "lynx", argv: ["lynx", "-nocolor", "-nopause", "page.html"], size: [80, 24],
    steps: [waitText("Closing words"), settle, mark("page"), keys("Down"), mark("second-link")],
  },
  {
    name: "prompt-toolkit", program: "prompt_toolkit", argv: ["python3", "complete.py"], size: [80, 24],
    steps: [waitText("fruit> "), settle, mark("prompt"), text("b"), mark("completions"), keys("Down"), mark("completion-down")],
  },
  {
    name: "ptpython", program: "ptpython", argv: ["ptpython"], size: [80, 24],
    steps: [waitText(">>>"), settle, mark("prompt"), text("imp"), mark("completing")],
  },
  {
    name: "curses-menu", program: "curses", argv: ["python3", "menu.py"], size: [80, 24],
    steps: [waitText("Export"), settle, mark("start"), keys("Down", "Down"), mark("down2")],
  },
  {
    name: "ncdu", program: "ncdu", argv: ["ncdu", "tree"], size: [80, 24],
    steps: [waitText("Total disk usage"), settle, mark("list"), keys("Down"), mark("list-down"), keys("?"), mark("help")],
  },
];
