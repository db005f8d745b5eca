#!/bin/sh
# Files that are not what napkin expects, through every command that reads one: a 100 MB
# file, a FIFO nobody writes to, a directory, /dev/zero, /dev/urandom, an empty file, a
# symlink loop, a file that does not exist. Each is refused within seconds, with a message
# that names the file and status 1 or 2; none hangs or crashes. A pipe on /dev/stdin works.
#   sh tests/hostile/cli_files.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0 runs=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# 100 MB of YAML comments after a good scenario
{
	printf 'batch: 8\n'
	head -c 100000000 /dev/zero | tr '\0' '#'
	printf '\n'
} >"$tmp/huge.yaml"
mkfifo "$tmp/fifo.yaml"
mkdir "$tmp/dir.yaml"
: >"$tmp/empty.yaml"
ln -s "$tmp/loop.yaml" "$tmp/loop.yaml"

# refused LABEL FILE ARGS...: napkin ARGS is refused in time, naming FILE
refused() {
	label=$1 file=$2
	shift 2
	runs=$((runs + 1))
	start=$(date +%s)
	timeout 20 "$NAPKIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	took=$(($(date +%s) - start))
	case $rc in
	1 | 2) ;;
	124) fail "$label: napkin $*: hung (killed after 20 s)"; return ;;
	*) fail "$label: napkin $*: status $rc: $(head -c 300 "$tmp/err")"; return ;;
	esac
	[ "$took" -le 5 ] || fail "$label: napkin $*: took $took s"
	# presets check reports on stdout, like a linter; the others on stderr
	cat "$tmp/err" "$tmp/out" >"$tmp/msg"
	grep -qF -- "$file" "$tmp/msg" || fail "$label: napkin $*: the message does not name $file: $(head -c 300 "$tmp/msg")"
	echo "ok: $label: $(head -n1 "$tmp/msg" | cut -c1-150)"
}

for f in "$tmp/huge.yaml" "$tmp/fifo.yaml" "$tmp/dir.yaml" /dev/zero /dev/urandom "$tmp/empty.yaml" \
	"$tmp/loop.yaml" "$tmp/missing.yaml"; do
	name=${f##*/}
	refused "scenario $name" "$f" report --scenario "$f"
	refused "model $name" "$f" report --model "$f"
	refused "gpu $name" "$f" report --gpu "$f"
	refused "check $name" "$f" presets check "$f"
	refused "lesson $name" "$f" lesson "$f"
done
refused "presets dir" "$tmp/dir.yaml" report --presets "$tmp/dir.yaml/nope"

# a pipe on /dev/stdin is read to its end
runs=$((runs + 1))
printf 'batch: 8\n' | timeout 20 "$NAPKIN" report --scenario /dev/stdin --format json >"$tmp/out" 2>"$tmp/err" ||
	fail "a scenario on /dev/stdin: $(cat "$tmp/err")"
grep -q '"batch": 8' "$tmp/out" || fail "a scenario on /dev/stdin was not read"

echo "$runs runs, $fails failures"
[ $fails -eq 0 ] || exit 1
echo "ok: files that are not presets"
