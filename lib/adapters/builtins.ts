// The built-in manifests, embedded in the binary as text.
import gemini from "../../adapters/gemini.toml" with { type: "text" };
import opencode from "../../adapters/opencode.toml" with { type: "text" };
import claude from "../../adapters/claude.toml" with { type: "text" };
import codex from "../../adapters/codex.toml" with { type: "text" };
import pi from "../../adapters/pi.toml" with { type: "text" };
import carbonyl from "../../adapters/carbonyl.toml" with { type: "text" };
import git from "../../adapters/git.toml" with { type: "text" };
import htop from "../../adapters/htop.toml" with { type: "text" };
import less from "../../adapters/less.toml" with { type: "text" };
import man from "../../adapters/man.toml" with { type: "text" };
import python from "../../adapters/python.toml" with { type: "text" };
import pythonScript from "../../adapters/python-script.toml" with { type: "text" };
import ncdu from "../../adapters/ncdu.toml" with { type: "text" };
import tig from "../../adapters/tig.toml" with { type: "text" };
import fzf from "../../adapters/fzf.toml" with { type: "text" };
import whiptail from "../../adapters/whiptail.toml" with { type: "text" };
import dialog from "../../adapters/dialog.toml" with { type: "text" };
import mc from "../../adapters/mc.toml" with { type: "text" };
import nano from "../../adapters/nano.toml" with { type: "text" };
import gitAdd from "../../adapters/git-add.toml" with { type: "text" };
import pdb from "../../adapters/pdb.toml" with { type: "text" };
import node from "../../adapters/node.toml" with { type: "text" };
import repl from "../../adapters/repl.toml" with { type: "text" };
import shell from "../../adapters/shell.toml" with { type: "text" };
import tmux from "../../adapters/tmux.toml" with { type: "text" };
import top from "../../adapters/top.toml" with { type: "text" };
import vim from "../../adapters/vim.toml" with { type: "text" };

export const BUILTIN_MANIFESTS: { file: string; source: string }[] = [
  { file: "adapters/carbonyl.toml", source: carbonyl },
  { file: "adapters/pi.toml", source: pi },
  { file: "adapters/codex.toml", source: codex },
  { file: "adapters/claude.toml", source: claude },
  { file: "adapters/opencode.toml", source: opencode },
  { file: "adapters/gemini.toml", source: gemini },
  { file: "adapters/git.toml", source: git },
  { file: "adapters/htop.toml", source: htop },
  { file: "adapters/less.toml", source: less },
  { file: "adapters/man.toml", source: man },
  { file: "adapters/python.toml", source: python },
  { file: "adapters/python-script.toml", source: pythonScript },
  { file: "adapters/ncdu.toml", source: ncdu },
  { file: "adapters/tig.toml", source: tig },
  { file: "adapters/fzf.toml", source: fzf },
  { file: "adapters/whiptail.toml", source: whiptail },
  { file: "adapters/dialog.toml", source: dialog },
  { file: "adapters/mc.toml", source: mc },
  { file: "adapters/nano.toml", source: nano },
  { file: "adapters/git-add.toml", source: gitAdd },
  { file: "adapters/pdb.toml", source: pdb },
  { file: "adapters/node.toml", source: node },
  { file: "adapters/repl.toml", source: repl },
  { file: "adapters/shell.toml", source: shell },
  { file: "adapters/tmux.toml", source: tmux },
  { file: "adapters/top.toml", source: top },
  { file: "adapters/vim.toml", source: vim },
];
