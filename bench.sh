#!/usr/bin/env bash
# Prints the benchmark table: our figures and, when the reference server is
# installed, its figures measured by the same benchmarks beside them.
#
#   ./bench.sh                      # ours only
#   REF=/path/to/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js ./bench.sh
#
# The reference installs with:
#   PUPPETEER_SKIP_DOWNLOAD=1 npm install chrome-devtools-mcp@1.11.0
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
benches='Startup|FirstCall|Navigation|Snapshot3000Rows|Input|Evaluate|Screenshot|PerformanceTrace|ScenarioRSS|OwnTime'
times=${BENCH_TIMES:-10x}

measure() { (cd e2e && go test -run '^$' -bench "^Benchmark($benches)\$" -benchtime "$times" .) 2>/dev/null | grep '^Benchmark' || true; }
# metrics turns benchmark lines into "name/unit value" pairs.
metrics() { awk '{ for (i = 5; i < NF; i += 2) print $i"|"$(i+1) }' | awk -F'|' '{ print $2, $1 }'; }

ours=$(measure | metrics)
ref=""
if [ -n "${REF:-}" ]; then
	sandbox=""
	[ "$(id -u)" = 0 ] && sandbox="--chromeArg=--no-sandbox"
	ref=$(BENCH_SERVER="node $REF --executablePath $(command -v chromium) $sandbox --no-usage-statistics" measure | metrics)
fi
printf '| %-22s | %12s | %12s |\n' metric devtools-mcp reference
printf '|%s|%s|%s|\n' ------------------------ -------------- --------------
while read -r name value; do
	theirs=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$ref")
	printf '| %-22s | %12s | %12s |\n' "$name" "$value" "${theirs:--}"
done <<<"$ours"
