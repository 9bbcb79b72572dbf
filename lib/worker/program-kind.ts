// Program and shell sessions: a terminal program on the PTY. Input goes as a terminal sends it
// (session-core.ts), command blocks come from the shell facet (every session answers status:
// a program's is "starting" until it exits), snapshots from the snapshot facet; the browser's
// methods are refused (not-a-browser).
import { TuiwrightError } from "../protocol/errors.ts";
import type { StartSpec } from "../link/messages.ts";
import { browserUrl } from "../browser/url.ts";
import type { SessionCore } from "./session-core.ts";
import { kindName, notABrowser, type SessionKind } from "./session-kind.ts";
import type { ShellFacet } from "./shell-facet.ts";
import type { SnapshotFacet } from "./snapshot-facet.ts";
import { afterTurnWait, runTurn } from "./turn-op.ts";
import { endProgram } from "./end-op.ts";
import { foregroundGroup, normalizeSignal, signalGroup } from "../runtime/process.ts";

export function programKind(spec: StartSpec, core: SessionCore, shell: ShellFacet, snapshots: SnapshotFacet): SessionKind {
  const refuse = (): never => { throw notABrowser(spec); };
  const notBrowser = (what: string) => () => { throw new TuiwrightError("not-a-browser", `${what} needs a browser session`); };
  return {
    name: kindName(spec),
    ops: {
      snapshot: (params) => snapshots.snapshot(params),
      get: ({ what }) => {
        if (what === "url" || what === "nav") refuse();
        const value = core.get(what);
        return { what, value, ...(what === "title" ? { title: value as string } : {}) };
      },
      mark: ({ label }) => {
        if (core.ended) throw new TuiwrightError("session-exited", `session ${JSON.stringify(spec.name)} has exited; its recording has ended`);
        return core.mark(label);
      },
      wait: async (params, signal) => {
        const result = await core.wait(params, signal);
        await afterTurnWait(core, params);
        return result;
      },
      type: (params) => core.type(params),
      press: (params) => core.press(params),
      click: (params) => core.click(params),
      scroll: async (params) => ({ ok: true, ...(await core.scroll(params)) }),
      resize: (params) => core.resize(params),
      exec: (params) => shell.exec(params),
      send: (params) => shell.send(params.data, params.secret === true, params.block),
      status: () => shell.status(),
      blocks: (params) => shell.blocks(params),
      block: (params) => shell.block(params),
      turn: (params, signal) => runTurn(core, params, signal),
      end: (params) => endProgram(spec, core, shell, params),
      // To the terminal's foreground group: the program in front, or the shell itself.
      signal: (params) => {
        const signal = normalizeSignal(params.signal);
        if (core.exit) throw new TuiwrightError("session-exited", `session ${JSON.stringify(spec.name)} has exited; there is nothing to signal`);
        const pgid = foregroundGroup(core.pid) ?? core.pid;
        if (!core.ended) core.mark(`signal ${signal}`);
        if (!signalGroup(pgid, signal)) throw new TuiwrightError("session-exited", `process group ${pgid} of session ${JSON.stringify(spec.name)} is gone`);
        return { signal, pgid };
      },
      mouse: refuse,
      navigate: ({ url }) => { browserUrl(url); return refuse(); }, // a bad URL is named first, as for any session
      back: refuse,
      forward: refuse,
      reload: refuse,
      browser: notBrowser("the browser's state"),
      browserReady: notBrowser("waiting for the browser"),
      browserRestore: notBrowser("restoring the history"),
    },
  };
}
