#!/bin/sh
# Installs devtools-mcp from a release: picks the archive for this machine,
# checks it against the release's SHA256SUMS, and installs the binary into
# ~/.local/bin. Nothing is installed when the checksum does not match.
#
#   curl -fsSL <release URL>/install.sh | sh
#
# Environment:
#   DEVTOOLS_MCP_VERSION      the version to install (default: this script's)
#   DEVTOOLS_MCP_BASE_URL     where the archives and SHA256SUMS are
#   DEVTOOLS_MCP_INSTALL_DIR  where to put the binary (default: ~/.local/bin)
set -eu

version=${DEVTOOLS_MCP_VERSION:-@VERSION@}
base=${DEVTOOLS_MCP_BASE_URL:-@BASE_URL@}
dir=${DEVTOOLS_MCP_INSTALL_DIR:-$HOME/.local/bin}

fail() {
	echo "install.sh: $*" >&2
	exit 1
}

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) fail "no release build for $(uname -s); build from source (see the README)" ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail "no release build for $(uname -m); build from source (see the README)" ;;
esac

fetch() { # URL FILE
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL -o "$2" "$1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1"
	else
		fail "needs curl or wget"
	fi
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	else
		fail "needs sha256sum or shasum to check the download"
	fi
}

archive="devtools-mcp_${version}_${os}_${arch}.tar.gz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "downloading $archive from $base"
fetch "$base/$archive" "$tmp/$archive" || fail "could not download $base/$archive"
fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" || fail "could not download $base/SHA256SUMS"

want=$(awk -v f="$archive" '$2 == f { print $1 }' "$tmp/SHA256SUMS")
[ -n "$want" ] || fail "SHA256SUMS has no line for $archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || fail "checksum mismatch for $archive: SHA256SUMS says $want, the download is $got; nothing was installed"

mkdir -p "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" devtools-mcp || fail "could not unpack $archive"
mkdir -p "$dir"
# Install through a temporary name and a rename, so a running copy keeps
# working and a half-written binary is never on the PATH.
cp "$tmp/x/devtools-mcp" "$dir/.devtools-mcp.$$"
chmod 755 "$dir/.devtools-mcp.$$"
mv -f "$dir/.devtools-mcp.$$" "$dir/devtools-mcp"
echo "installed devtools-mcp $version into $dir/devtools-mcp"
case ":$PATH:" in
*":$dir:"*) ;;
*) echo "note: $dir is not on your PATH; add it, or use the full path in your MCP client's configuration" ;;
esac
