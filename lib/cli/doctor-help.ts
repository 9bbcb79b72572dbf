// The help entry of `tuiwright doctor` (plain data, so `help` does not load the checks).
import type { FlagSpec } from "./flags.ts";

export const DOCTOR_HELP = {
  name: "doctor",
  summary: "check the socket directory, daemon, versions, state directory, shells, Carbonyl, manifests and config; each problem with its fix (exit 1 if any)",
  usage: "doctor",
  flags: [] as FlagSpec[],
};
