// The platforms a release is built for (release.ts, npm-packages.ts).
/** install.sh's platform name → Bun's --target. Windows is left out: sessions need a Unix PTY. */
export const TARGETS: Record<string, string> = {
  "linux-x64": "bun-linux-x64",
  "linux-x64-musl": "bun-linux-x64-musl",
  "linux-arm64": "bun-linux-arm64",
  "linux-arm64-musl": "bun-linux-arm64-musl",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
};
