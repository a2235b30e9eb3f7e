#!/usr/bin/env bash
# Prints the benchmark table: our figures and, when the reference server is
# installed, its figures measured by the same benchmarks beside them.
#
#   ./bench.sh                      # ours only
#   REF=/path/to/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js ./bench.sh
#   ROUNDS=5 BENCH_TIMES=1x REF=... ./bench.sh   # five rounds, ours and the
#                                   # reference in turn, medians per metric
#   BENCHES='FirstSnapshot|Input' ./bench.sh   # some benchmarks only
#
# The reference installs with:
#   PUPPETEER_SKIP_DOWNLOAD=1 npm install chrome-devtools-mcp@1.11.0
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
benches=${BENCHES:-'Startup|FirstCall|Navigation|FirstSnapshot|Snapshot3000Rows|Input|Evaluate|Screenshot|PerformanceTrace|ScenarioRSS|OwnTime'}
times=${BENCH_TIMES:-10x}

measure() { (cd e2e && go test -run '^$' -bench "^Benchmark($benches)\$" -benchtime "$times" .) 2>/dev/null | grep '^Benchmark' || true; }
# metrics turns benchmark lines into "name/unit value" pairs.
metrics() { awk '{ for (i = 5; i < NF; i += 2) print $i"|"$(i+1) }' | awk -F'|' '{ print $2, $1 }'; }

# median keeps, per metric name, the median of its values over the rounds.
median() {
	sort -k1,1 -k2,2g | awk 'NF == 2 { if ($1 != k) { if (n) print k, v[int((n + 1) / 2)]; k = $1; n = 0 } v[++n] = $2 }
		END { if (n) print k, v[int((n + 1) / 2)] }'
}

sandbox=""
[ "$(id -u)" = 0 ] && sandbox="--chromeArg=--no-sandbox"
ours="" ref=""
# Rounds alternate the two servers, so that a machine whose load drifts
# weighs on both alike.
for ((round = 0; round < ${ROUNDS:-1}; round++)); do
	ours+=$(measure | metrics)$'\n'
	if [ -n "${REF:-}" ]; then
		ref+=$(BENCH_SERVER="node $REF --executablePath $(command -v chromium) $sandbox --no-usage-statistics" measure | metrics)$'\n'
	fi
done
ours=$(median <<<"$ours")
ref=$(median <<<"$ref")
printf '| %-22s | %12s | %12s |\n' metric devtools-mcp reference
printf '|%s|%s|%s|\n' ------------------------ -------------- --------------
while read -r name value; do
	theirs=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$ref")
	printf '| %-22s | %12s | %12s |\n' "$name" "$value" "${theirs:--}"
done <<<"$ours"

# The widget tasks (BenchmarkWidgetTasks, e2e/testdata/widgets): per task,
# the characters of the answers an agent read and its calls after the first
# snapshot, ours and, with REF, the reference's (which needs verbose
# snapshots and one key a call). The figures do not vary between runs:
# measured once. WIDGETS=0 skips it.
if [ "${WIDGETS:-1}" != 0 ]; then
	widgets() { (cd e2e && go test -run '^$' -bench '^BenchmarkWidgetTasks$' -benchtime 1x .) 2>/dev/null | grep '^BenchmarkWidgetTasks/' |
		awk '{ delete m; for (i = 5; i < NF; i += 2) m[$(i+1)] = $i; name = $1; sub(/^BenchmarkWidgetTasks\//, "", name); sub(/-[0-9]+$/, "", name); printf "%s %.0f %.0f\n", name, m["chars"], m["calls"] }' || true; }
	wours=$(widgets)
	wref=""
	[ -n "${REF:-}" ] && wref=$(BENCH_SERVER="node $REF --executablePath $(command -v chromium) $sandbox --no-usage-statistics" widgets)
	echo
	printf '| %-28s | %13s | %13s | %13s | %13s |\n' 'widget task' 'chars (ours)' 'chars (ref.)' 'calls (ours)' 'calls (ref.)'
	printf '|%s|%s|%s|%s|%s|\n' ------------------------------ --------------- --------------- --------------- ---------------
	while read -r name chars calls; do
		[ -n "$name" ] || continue
		read -r rchars rcalls < <(awk -v n="$name" '$1 == n { print $2, $3 }' <<<"$wref")
		printf '| %-28s | %13s | %13s | %13s | %13s |\n' "$name" "$chars" "${rchars:--}" "$calls" "${rcalls:--}"
	done <<<"$wours"
fi

# Many agents at once over HTTP (BenchmarkHTTPSessionScale, and
# --webdriverUrl with chromedriver: BenchmarkWebDriverSessionScale), one row
# per number of sessions; minutes long, SCALE=0 skips it. With
# PLAYWRIGHT_MCP=/path/to/@playwright/mcp/cli.js (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# npm install @playwright/mcp), playwright-mcp runs the same scenario beside
# them (BenchmarkPlaywrightSessionScale).
[ "${SCALE:-1}" = 0 ] && exit 0
echo
printf '| %-26s | %6s | %15s | %15s | %15s | %11s | %8s | %9s |\n' sessions failed 'new_page p50/95' 'snapshot p50/95' 'click p50/95' 'Chrome MB/s.' 'left %' 'server MB'
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' ---------------------------- -------- ----------------- ----------------- ----------------- ------------- ---------- -----------
(cd e2e && go test -run '^$' -bench "^Benchmark(HTTP|WebDriver${PLAYWRIGHT_MCP:+|Playwright})SessionScale\$" -benchtime 1x -timeout 40m .) 2>/dev/null | grep '^Benchmark' |
	awk '{ delete m; for (i = 5; i < NF; i += 2) m[$(i+1)] = $i; name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
		printf "| %-26s | %6s | %15s | %15s | %15s | %11s | %8s | %9s |\n", name, m["failed-sessions"],
			sprintf("%.0f/%.0f ms", m["new_page-p50-ms"], m["new_page-p95-ms"]), sprintf("%.0f/%.0f ms", m["take_snapshot-p50-ms"], m["take_snapshot-p95-ms"]),
			sprintf("%.0f/%.0f ms", m["click-p50-ms"], m["click-p95-ms"]), or(m["chrome-MB/session"]), or(m["chrome-left-%"]), m["server-MB"] }
		function or(v) { return v == "" ? "-" : v }' || true
