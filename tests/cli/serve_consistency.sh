#!/bin/sh
# Serving as an engine runs it, as a person reads it on the command line: with an engine,
# the report's TTFT, ITL, request time, throughput and capacity agree with each other (the
# throughput is the requests a second times the tokens each, the request the TTFT and one
# ITL a token after it), no line quotes another throughput a replica or an unqualified
# TTFT (the roofline figures are said as bounds), the memory section's most concurrent
# sequences is the capacity the engine admits, and the SLA concurrency is the most users
# whose TTFT and ITL stay within the targets.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 0; }
export COLUMNS=200 LC_ALL=C LANG=C
ARGS="--model llama-3-70b --gpus 2 --tp 2 --mode infer --engine vllm --weight-format fp8 --prompt 5000 --generate 500"

steady_check() { # extra knobs
out=$("$NAPKIN" report $ARGS --batch 50 "$@") || fail "report $* exits $?"
echo "$out" | python3 -c '
import re, sys
t = sys.stdin.read()
def secs(s):
    v, u = s.split()
    return float(v.replace(",", "")) * {"s": 1, "ms": 1e-3, "µs": 1e-6, "min": 60, "h": 3600}[u]
def num(s):
    return float(s.replace(",", ""))
def fail(m):
    print("FAIL:", m); sys.exit(1)
m = re.search(r"steady +(\d+) users: TTFT ([\d.,]+ \S+)(?: ±\d+%)? \(of it [\d.,]+ \S+ waiting\) · ITL ([\d.,]+ \S+)(?: ±\d+%)? \(median ([\d.,]+ \S+)\) · request ([\d.,]+ \S+) = TTFT \+ (\d+) × ITL", t)
if not m: fail("no steady line:\n" + t)
users, ttft, itl, med, req, n = int(m[1]), secs(m[2]), secs(m[3]), secs(m[4]), secs(m[5]), int(m[6])
if not 0 < med: fail("no median ITL")
if abs(ttft + n * itl - req) > 0.01 * req: fail("request %g s is not TTFT %g + %d x ITL %g" % (req, ttft, n, itl))
m = re.search(r"output +tokens/s ([\d.,]+) per user · ([\d.,]+)(?: ±\d+%)? per replica \(([\d.]+) requests/s × (\d+)\)", t)
if not m: fail("no output line")
user, rep, rps, gen = num(m[1]), num(m[2]), float(m[3]), int(m[4])
if abs(rps * gen - rep) > 0.01 * rep: fail("%g tokens/s a replica is not %g requests/s x %d" % (rep, rps, gen))
if abs(rps - users / req) > 0.02 * rps: fail("%g requests/s is not %d users / %g s (Little)" % (rps, users, req))
if abs(user - gen / req) > 0.02 * user: fail("%g tokens/s a user is not %d / %g s" % (user, gen, req))
others = [num(x) for x in re.findall(r"([\d.,]+)(?: ±\d+%)? per replica", t) if abs(num(x) - rep) > 0.01 * rep]
if others: fail("another throughput a replica: %s (the steady state says %g)" % (others, rep))
for line in t.splitlines():
    if re.search(r"\bTTFT [\d.]", line) and "steady" not in line and "≥" not in line:
        fail("an unqualified TTFT besides the steady state: " + line.strip())
cap = re.search(r"capacity +(\d+)(?: ±\d+%)? concurrent sequences per replica", t)
most = re.search(r"most concurrent sequences (\d+)", t)
if not cap or not most: fail("no capacity or most concurrent sequences")
if cap[1] != most[1]: fail("most concurrent sequences %s, the capacity %s" % (most[1], cap[1]))
# the time between tokens is the average step over the tokens a step gains (1 without a drafter)
m = re.search(r"a step +[\d.]+ decoding \+ [\d.,]+ prefill tokens on average;\s+with a chunk ([\d.,]+ \S+), decode only ([\d.,]+ \S+) \((\d+)% of steps", t)
if not m: fail("no step line")
mix, dec, f = secs(m[1]), secs(m[2]), int(m[3]) / 100.0
e = re.search(r"speculative +.*?: ([\d.]+) tokens a step \(the target verifies (\d+) a sequence\)", t, re.S)
E = float(e[1]) if e else 1.0
if abs((f * mix + (1 - f) * dec) / E - itl) > 0.03 * itl: fail("ITL %g is not (%g x %g + %g x %g) / %g" % (itl, f, mix, 1 - f, dec, E))
if e and re.search(r"TPOT ≥", t): fail("with a drafter the plain decode step is quoted as a bound on TPOT")
' || exit 1
}
steady_check
# speculative decoding and a cached prefix: the same agreements, E from the report's own line
steady_check --speculative eagle --spec-tokens 3 --spec-accept 0.7 --prefix-hit 0.5
steady_check --speculative draft --spec-draft-params 1B --spec-tokens 4 --spec-accept 0.8

# JSON and the explanation say the report's tokens a step, ITL and drafting
out=$("$NAPKIN" report $ARGS --batch 50 --speculative eagle --spec-accept 0.7 --explain) || fail "report --explain with a drafter exits $?"
json=$("$NAPKIN" report $ARGS --batch 50 --speculative eagle --spec-accept 0.7 --format json) || fail "json with a drafter exits $?"
printf '%s\n' "$json" > "${TMPDIR:-/tmp}/napkin-spec-$$.json"
echo "$out" | python3 -c '
import json, re, sys
t = sys.stdin.read()
j = json.load(open(sys.argv[1]))["serving"]
def fail(m):
    print("FAIL:", m); sys.exit(1)
e = re.search(r"speculative +.*?: ([\d.]+) tokens a step", t, re.S)
if not e: fail("no speculative line")
if abs(float(e[1]) - j["spec_tokens_per_step"]) > 1e-3: fail("tokens a step %s, JSON %g" % (e[1], j["spec_tokens_per_step"]))
m = re.search(r"\nserving.spec_tokens_per_step: (.*?)\n\n", t, re.S)
if not m or "source" not in m[1] or "Leviathan" not in m[1]: fail("serving.spec_tokens_per_step: no explanation with its source")
r = re.search(r"result +E ([\d.]+); ITL ([\d.,]+ [^\s,]+)", m[1])
itl = re.search(r"steady .* ITL ([\d.,]+ \S+)(?: ±\d+%)? \(median", t)
if not r or abs(float(r[1]) - j["spec_tokens_per_step"]) > 1e-3 or not itl or r[2] != itl[1]:
    fail("the explanation says %s, the report ITL %s" % (r and r.group(0), itl and itl[1]))
' "${TMPDIR:-/tmp}/napkin-spec-$$.json" || { rm -f "${TMPDIR:-/tmp}/napkin-spec-$$.json"; exit 1; }
rm -f "${TMPDIR:-/tmp}/napkin-spec-$$.json"

# --explain says why each serving number is what it is, with the number the report shows
out=$("$NAPKIN" report $ARGS --batch 50 --explain) || fail "report --explain exits $?"
echo "$out" | python3 -c '
import re, sys
t = sys.stdin.read()
def fail(m):
    print("FAIL:", m); sys.exit(1)
itl = re.search(r"steady .* ITL ([\d.,]+ \S+)(?: ±\d+%)? \(median", t)
rep = re.search(r"output +tokens/s [\d.,]+ per user · ([\d.,]+)(?: ±\d+%)? per replica", t)
for key, want in (("serving.itl_seconds", itl and itl[1]), ("serving.tokens_per_s_replica", rep and rep[1])):
    m = re.search(r"\n" + re.escape(key) + r": (.*?)\n\n", t, re.S)
    if not m: fail("no explanation of " + key)
    body = m[1]
    if "source" not in body: fail(key + " names no source")
    r = re.search(r"result +([\d.,]+(?: \S+)?)", body)
    if not r or not want or not r[1].startswith(want): fail("%s says %s, the report %s" % (key, r and r[1], want))
' || exit 1

# the Markdown handout says the same figures as the text report, the roofline's as bounds
txt=$("$NAPKIN" report $ARGS --batch 50) || fail "report exits $?"
md=$("$NAPKIN" report $ARGS --batch 50 --format markdown) || fail "markdown exits $?"
printf '%s\n\001\n%s\n' "$txt" "$md" | python3 -c '
import re, sys
t, md = sys.stdin.read().split("\001")
t = re.sub(r"\s+", " ", t)
def fail(m):
    print("FAIL:", m); sys.exit(1)
st = re.search(r"steady +\d+ users: TTFT ([\d.,]+ \S+ ±\d+%) \(of it [\d.,]+ \S+ waiting\) · ITL ([\d.,]+ \S+ ±\d+%) \(median [^)]*\) · request ([\d.,]+ \S+)", t)
out = re.search(r"output +tokens/s ([\d.,]+) per user · ([\d.,]+ ±\d+%) per replica \([^)]*\) · ([\d.,]+) per GPU", t)
cap = re.search(r"capacity ([\d,]+ ±\d+%) concurrent", t)
if not (st and out and cap): fail("the text report lacks a steady, output or capacity line")
want = ["Time to first token: %s; inter-token latency: %s; request: %s" % st.groups(),
        "Output tokens/s: %s per user, %s per replica, %s per GPU" % out.groups(),
        "Capacity: %s concurrent sequences" % cap[1]]
for w in want:
    if w not in md: fail("the Markdown lacks %r" % w)
if not re.search(r"Bounds at 100% of peak and bandwidth: TTFT ≥ [\d.,]+ \S+, a decode step of 50 sequences ≥", md):
    fail("the Markdown does not give the roofline figures as bounds")
if "time per output token" in md: fail("the Markdown quotes the TPOT bound as a time per output token")
' || exit 1

# the SLA: at its concurrency both targets hold, one user more breaks one of them
out=$("$NAPKIN" report $ARGS --batch 50 --ttft-slo 1s --tpot-slo 50ms) || fail "report with the SLA exits $?"
n=$(echo "$out" | sed -n 's/.*SLA .*at most \([0-9][0-9]*\) concurrent users.*/\1/p')
[ -n "$n" ] && [ "$n" -ge 1 ] || fail "no SLA concurrency: $(echo "$out" | grep -i sla)"
check() { # users, expect (in|out)
	"$NAPKIN" report $ARGS --batch "$1" --format json | python3 -c '
import json, sys
s = json.load(sys.stdin)["serving"]
ok = s["ttft_seconds"] <= 1.0 and s["itl_seconds"] <= 0.050
sys.exit(0 if ok == (sys.argv[1] == "in") else 1)' "$2" || fail "at $1 users the SLA should be $2"
}
check "$n" in
check $((n + 1)) out
echo "ok"
