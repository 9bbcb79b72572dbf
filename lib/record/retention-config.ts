// The retention policy in force: flags, else $TUIWRIGHT_KEEP / $TUIWRIGHT_KEEP_DAYS /
// $TUIWRIGHT_MAX_CAST_BYTES, else the [retention] table of config.toml (keep, keep_days,
// max_cast_bytes; lib/runtime/config-file.ts says where), else the defaults.
import { parse } from "smol-toml";
import { TuiwrightError } from "../protocol/errors.ts";
import { readConfigFile } from "../runtime/config-file.ts";
import { DEFAULT_RETENTION, type RetentionPolicy } from "./retention.ts";
import { setting } from "../runtime/settings.ts";

function count(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "bigint" && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new TuiwrightError("bad-data", `${where} must be a whole number ≥ 0 (0: no limit); got ${JSON.stringify(typeof value === "bigint" ? String(value) : value)}`, {
    hint: "e.g. keep = 100, keep_days = 14, max_cast_bytes = 268435456",
  });
}

function fromConfig(path: string): Partial<RetentionPolicy> {
  const text = readConfigFile(path);
  if (text === null) return {};
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new TuiwrightError("bad-data", `${path}: ${(error as Error).message.split("\n")[0]}`, { hint: "fix the TOML syntax" });
  }
  const table = doc.retention;
  if (table === undefined) return {};
  if (typeof table !== "object" || table === null || Array.isArray(table)) throw new TuiwrightError("bad-data", `${path}: retention must be a table ([retention])`);
  const result: Partial<RetentionPolicy> = {};
  for (const [key, value] of Object.entries(table)) {
    if (key === "keep") result.keep = count(value, `${path}: retention.keep`);
    else if (key === "keep_days") result.keepDays = count(value, `${path}: retention.keep_days`);
    else if (key === "max_cast_bytes") result.maxCastBytes = count(value, `${path}: retention.max_cast_bytes`);
    else throw new TuiwrightError("bad-data", `${path}: unknown key retention.${key}`, { hint: "the keys are keep, keep_days and max_cast_bytes" });
  }
  return result;
}

export function retentionPolicy(configFile: string, given: Partial<RetentionPolicy> = {}): RetentionPolicy {
  const flag = (value: number | undefined, name: string) => (value === undefined ? undefined : count(value, name));
  const flags = { keep: flag(given.keep, "--keep"), keepDays: flag(given.keepDays, "--keep-days"), maxCastBytes: flag(given.maxCastBytes, "--max-cast-bytes") };
  const config = fromConfig(configFile);
  return {
    keep: flags.keep ?? setting("keep") ?? config.keep ?? DEFAULT_RETENTION.keep,
    keepDays: flags.keepDays ?? setting("keepDays") ?? config.keepDays ?? DEFAULT_RETENTION.keepDays,
    maxCastBytes: flags.maxCastBytes ?? setting("maxCastBytes") ?? config.maxCastBytes ?? DEFAULT_RETENTION.maxCastBytes,
  };
}
