// URLs a browser session may load: absolute http(s), file, data and about URLs, normalised the
// way Chromium shows them in its URL bar (so "http://host" waits for "http://host/").
import { TuiwrightError } from "../protocol/errors.ts";

const SCHEMES = new Set(["http:", "https:", "file:", "data:", "about:"]);

export function browserUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new TuiwrightError("bad-url", `not an absolute URL: ${JSON.stringify(text)}`);
  }
  if (!SCHEMES.has(url.protocol)) throw new TuiwrightError("bad-url", `${JSON.stringify(text)}: the browser does not load ${url.protocol} URLs`);
  if ((url.protocol === "http:" || url.protocol === "https:") && !url.hostname) throw new TuiwrightError("bad-url", `${JSON.stringify(text)} has no host`);
  return url.href;
}
