#!/usr/bin/env bash
# Builds devtools-mcp and runs it against a local sample page, printing what an
# MCP client sees (see internal/demo/main.go). Installs Chromium first when it is missing
# and CHROME_PATH is unset (Debian and Ubuntu, through apt-get); the tests need
# it too. Needs Go. Runs from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

if ! command -v go >/dev/null 2>&1; then
	echo "demo.sh: Go is required to build devtools-mcp; install it from https://go.dev/dl/" >&2
	exit 1
fi

if [ -z "${CHROME_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "demo.sh: chromium is not installed and there is no apt-get to install it; install Chromium, or set CHROME_PATH to a Chrome binary" >&2
		exit 1
	fi
	as_root=""
	if [ "$(id -u)" -ne 0 ]; then
		if ! command -v sudo >/dev/null 2>&1; then
			echo "demo.sh: installing Chromium needs root; run as root, install sudo, or install chromium yourself" >&2
			exit 1
		fi
		as_root=sudo
	fi
	echo "==> Installing Chromium (apt-get)"
	$as_root apt-get update
	$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

echo "==> Building ./devtools-mcp"
CGO_ENABLED=0 go build -o devtools-mcp .

echo "==> Running the demo"
go run ./internal/demo ./devtools-mcp
