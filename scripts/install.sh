#!/bin/sh
# tuiwright installer:  curl -fsSL https://github.com/tuiwright/tuiwright/releases/latest/download/install.sh | sh
#
#   sh install.sh [--version X.Y.Z] [--prefix DIR] [--base-url URL] [--sha256 HASH]
#   curl -fsSL URL | sh -s -- --version 0.1.0
#
# Detects OS, CPU and C library, downloads tuiwright-<platform>.gz and SHA256SUMS from the
# release, verifies the checksum (and refuses to install on a mismatch), and installs the
# binary as $PREFIX/bin/tuiwright (default PREFIX: ~/.local). Running it again replaces the
# binary in one rename, so it is safe to re-run and to run while tuiwright is in use.
#
# What the checksum protects against (SECURITY.md, "Releases"): SHA256SUMS comes from the same
# server as the artifact, so it catches a corrupt or truncated download — not a server (mirror,
# release page) that serves a tampered artifact with a matching SHA256SUMS. Against that, pass
# --sha256 HASH: the artifact's SHA-256 as you got it from a source you trust (the release notes
# on github.com, or a value pinned in your CI config); the download is checked against it and
# SHA256SUMS is not used. The downloaded binary runs (`--version`, to see that it runs here)
# only after that check passed.
#
# Environment (each also a flag): TUIWRIGHT_VERSION, PREFIX, TUIWRIGHT_BASE_URL (a mirror:
# it must serve latest/download/FILE and download/vX.Y.Z/FILE, as GitHub releases do),
# TUIWRIGHT_SHA256, TUIWRIGHT_PLATFORM (skip detection, e.g. linux-x64-musl).
#
# Uninstall: `tuiwright daemon stop`, then `rm ~/.local/bin/tuiwright` (or $PREFIX/bin/tuiwright);
# recordings and state live in ~/.local/state/tuiwright, your manifests in ~/.config/tuiwright.
set -eu

BASE_URL=${TUIWRIGHT_BASE_URL:-https://github.com/tuiwright/tuiwright/releases}
VERSION=${TUIWRIGHT_VERSION:-}
PREFIX=${PREFIX:-}
PLATFORM=${TUIWRIGHT_PLATFORM:-}
PINNED=${TUIWRIGHT_SHA256:-}

say() { printf '%s\n' "$*"; }
die() { printf 'tuiwright install: %s\n' "$*" >&2; exit 1; }

usage() {
  say "usage: install.sh [--version X.Y.Z] [--prefix DIR] [--base-url URL] [--sha256 HASH]"
  say "installs tuiwright to PREFIX/bin (default ~/.local/bin); see the top of this script"
}

while [ $# -gt 0 ]; do
  case $1 in
    --version) [ $# -ge 2 ] || die "--version needs a value, e.g. --version 0.1.0"; VERSION=$2; shift 2 ;;
    --version=*) VERSION=${1#*=}; shift ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
    --prefix=*) PREFIX=${1#*=}; shift ;;
    --base-url) [ $# -ge 2 ] || die "--base-url needs a URL"; BASE_URL=$2; shift 2 ;;
    --base-url=*) BASE_URL=${1#*=}; shift ;;
    --sha256) [ $# -ge 2 ] || die "--sha256 needs the artifact's SHA-256 (64 hex digits)"; PINNED=$2; shift 2 ;;
    --sha256=*) PINNED=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument \"$1\"" ;;
  esac
done

VERSION=${VERSION#v}
case $VERSION in
  ''|[0-9]*.[0-9]*.[0-9]*) ;;
  *) die "version \"$VERSION\" is not X.Y.Z (e.g. --version 0.1.0)" ;;
esac

PINNED=$(printf '%s' "$PINNED" | tr 'A-F' 'a-f')
case $PINNED in
  '') ;;
  *[!0-9a-f]*) die "--sha256 \"$PINNED\" is not a SHA-256 (64 hex digits)" ;;
  *) [ ${#PINNED} -eq 64 ] || die "--sha256 \"$PINNED\" is not a SHA-256 (64 hex digits)" ;;
esac

if [ -z "$PREFIX" ]; then
  [ -n "${HOME:-}" ] || die "HOME is not set: pass --prefix DIR (the binary goes to DIR/bin)"
  PREFIX=$HOME/.local
fi
BIN_DIR=${PREFIX%/}/bin

detect_platform() {
  os=$(uname -s)
  arch=$(uname -m)
  case $os in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) die "no build for $os: tuiwright runs on Linux and macOS (it needs a Unix pseudo-terminal)" ;;
  esac
  case $arch in
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) die "no build for CPU $arch: tuiwright is built for x86-64 and arm64" ;;
  esac
  # An x64 shell under Rosetta on Apple silicon: the native build is faster.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  libc=
  if [ "$os" = linux ]; then
    # ldd names the system's C library; glibc systems may also carry musl's loader (Debian's
    # musl package), so /lib/ld-musl-* alone decides only where there is no ldd.
    if command -v ldd >/dev/null 2>&1; then
      if ldd --version 2>&1 | grep -qi musl; then libc=-musl; fi
    elif ls /lib/ld-musl-* >/dev/null 2>&1; then
      libc=-musl
    fi
  fi
  PLATFORM=$os-$arch$libc
}

[ -n "$PLATFORM" ] || detect_platform
ARTIFACT=tuiwright-$PLATFORM.gz
if [ -n "$VERSION" ]; then
  URL_DIR=${BASE_URL%/}/download/v$VERSION
else
  URL_DIR=${BASE_URL%/}/latest/download
fi

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed"
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
elif command -v openssl >/dev/null 2>&1; then
  sha256() { openssl dgst -sha256 -r "$1" | cut -d' ' -f1; }
else
  die "no sha256sum, shasum or openssl to verify the download with"
fi
command -v gzip >/dev/null 2>&1 || die "gzip is not installed"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tuiwright-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

say "tuiwright: downloading $ARTIFACT (${VERSION:-latest}) from $URL_DIR"
if [ -z "$PINNED" ]; then
  fetch "$URL_DIR/SHA256SUMS" "$TMP/SHA256SUMS" || die "could not download $URL_DIR/SHA256SUMS${VERSION:+ (is $VERSION a released version?)}"
fi
fetch "$URL_DIR/$ARTIFACT" "$TMP/$ARTIFACT" || die "could not download $URL_DIR/$ARTIFACT (no build for $PLATFORM in this release?)"

# Verified before anything of the download runs: against the pinned hash if given, else
# against SHA256SUMS from the same server (corruption only; see the top of this script).
actual=$(sha256 "$TMP/$ARTIFACT")
if [ -n "$PINNED" ]; then
  [ "$PINNED" = "$actual" ] || die "$ARTIFACT does not match the --sha256 you gave: expected $PINNED, the download is $actual.
The server sent something other than the release you pinned; nothing was installed, and none of it ran."
  say "tuiwright: $ARTIFACT matches the pinned SHA-256"
else
  expected=$(awk -v f="$ARTIFACT" '$2 == f || $2 == "*" f { print $1; exit }' "$TMP/SHA256SUMS")
  [ -n "$expected" ] || die "SHA256SUMS has no line for $ARTIFACT; nothing was installed"
  if [ "$expected" != "$actual" ]; then
    die "checksum mismatch for $ARTIFACT: SHA256SUMS says $expected, the download is $actual.
The download is corrupt or was altered after SHA256SUMS was written; nothing was installed, and none of it ran. Try again, or check the mirror ($URL_DIR)."
  fi
  say "tuiwright: $ARTIFACT matches SHA256SUMS from the same server (this catches a corrupt download, not a tampered server: pass --sha256 HASH from the release notes to check against a source you trust)"
fi

gzip -dc "$TMP/$ARTIFACT" > "$TMP/tuiwright" || die "could not decompress $ARTIFACT; nothing was installed"
chmod 755 "$TMP/tuiwright"
musl_hint=
case $PLATFORM in *-musl) musl_hint="
The musl build needs the C++ runtime: apk add libstdc++ libgcc (Alpine)." ;; esac
new_version=$("$TMP/tuiwright" --version 2>&1) || die "the downloaded binary does not run here ($PLATFORM): $(printf '%s' "$new_version" | head -n 3)
Nothing was installed. Set TUIWRIGHT_PLATFORM (e.g. linux-x64-musl) if the detection was wrong.$musl_hint"

mkdir -p "$BIN_DIR" || die "cannot create $BIN_DIR (pass --prefix DIR)"
TARGET=$BIN_DIR/tuiwright
if [ -f "$TARGET" ] && cmp -s "$TMP/tuiwright" "$TARGET"; then
  say "tuiwright $new_version is already installed at $TARGET"
else
  old_version=
  [ -x "$TARGET" ] && old_version=$("$TARGET" --version 2>/dev/null || true)
  # Copy next to the target, then rename: a running tuiwright keeps its old file.
  cp "$TMP/tuiwright" "$BIN_DIR/.tuiwright.install.$$" || die "cannot write to $BIN_DIR (pass --prefix DIR)"
  mv -f "$BIN_DIR/.tuiwright.install.$$" "$TARGET"
  if [ -n "$old_version" ]; then
    say "tuiwright: replaced $old_version with $new_version at $TARGET"
    say "  a daemon of the old version keeps running until idle; restart it now with: tuiwright daemon stop"
  else
    say "tuiwright: installed $new_version at $TARGET"
  fi
fi

say ""
case ":${PATH:-}:" in
  *":$BIN_DIR:"*) run=tuiwright ;;
  *)
    run=$TARGET
    say "$BIN_DIR is not on your PATH. Add it (then open a new shell):"
    say "  echo 'export PATH=\"$BIN_DIR:\$PATH\"' >> ~/.profile"
    say "" ;;
esac
say "Next steps:"
say "  $run doctor                  check the socket dir, daemon, shells and browser support"
say "  $run spawn --session s -- bash   start a session, then: $run snapshot --session s"
say "  $run help                    every verb; '$run skill' for agents"
say "Uninstall: $run daemon stop && rm $TARGET (state: ~/.local/state/tuiwright)"
