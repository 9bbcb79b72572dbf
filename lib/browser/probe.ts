// Why a page did not load. Carbonyl's headless Chromium draws a network error as a blank page
// and keeps the old title, so when a navigation ends like that, tuiwright asks the server
// itself (one HEAD request) to say what went wrong instead of reporting a blank success.
import { existsSync } from "node:fs";

const PROBE_TIMEOUT_MS = 5000;

/** Chromium's name for the failure, with a plain reason; null when the URL answers (or is
 * merely slow). */
export async function unreachable(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol === "file:") {
    const path = decodeURIComponent(parsed.pathname);
    return existsSync(path) ? null : `net::ERR_FILE_NOT_FOUND (no such file: ${path})`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  try {
    await fetch(url, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    return null;
  } catch (error) {
    const { code, name, message } = error as { code?: string; name?: string; message?: string };
    if (code === "ConnectionRefused" || code === "ECONNREFUSED") return `net::ERR_CONNECTION_REFUSED (nothing listens at ${parsed.host})`;
    if (name === "TimeoutError") return null; // slow, not unreachable: the navigation's own timeout decides
    if (code === "ENOTFOUND" || code === "DNSException" || /resolve|DNS/i.test(message ?? "")) return `net::ERR_NAME_NOT_RESOLVED (${parsed.hostname} is not a known host)`;
    return `the server did not answer (${code ?? name ?? "error"}: ${message ?? ""})`;
  }
}
