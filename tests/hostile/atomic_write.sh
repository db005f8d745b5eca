#!/bin/sh
# Files napkin writes (saved scenarios, GPU profiles from napkin probe --save, any atomic
# write) on a full disk, in a read-only directory, past the file-size limit (ulimit -f), into
# a missing directory or over a directory: each is an error that names the file, the old
# file stays byte for byte, and no temporary file is left behind. A good write replaces the
# file whole and keeps its permissions.
#
#   sh tests/hostile/atomic_write.sh HOSTILE_SAVE NAPKIN [FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT]
#
# The full disk and the read-only directory are small tmpfs mounts when run as root (in a
# private mount namespace when unshare(1) allows); otherwise the read-only directory is a
# chmod 555 one and the full disk is left to RLIMIT_FSIZE.
set -u
TOOL=${1:?usage: $0 HOSTILE_SAVE NAPKIN [FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT]}
NAPKIN=${2:?usage: $0 HOSTILE_SAVE NAPKIN [FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT]}
CUDA=${3:-} NVML=${4:-} CUBLASLT=${5:-}

# as root, once: a private mount namespace, so no mount outlives the test
if [ "$(id -u)" = 0 ] && [ -z "${NAPKIN_HOSTILE_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m --propagation private true 2>/dev/null; then
	NAPKIN_HOSTILE_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

tmp=$(mktemp -d)
mounts=""
cleanup() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fails=0 cases=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

OLD="old contents: napkin must not touch these"

writers="w_scenario w_bytes"
[ -n "$CUDA" ] && [ -f "$CUDA" ] && writers="$writers w_probe"

# run_writer WRITER PATH: one write, as its own process (so ulimit applies to it alone)
cat >"$tmp/run_writer" <<EOS
#!/bin/sh
case \$1 in
w_scenario) exec "$TOOL" scenario "\$2" ;;
w_bytes) exec "$TOOL" bytes "\$2" 200000 ;;
w_probe) NAPKIN_LIBCUDA="$CUDA" NAPKIN_LIBNVML="$NVML" NAPKIN_LIBCUBLASLT="$CUBLASLT" \\
	NAPKIN_LIBCUBLAS=/nonexistent/libcublas.so.12 exec "$NAPKIN" probe --save "\$2" ;;
esac
exit 2
EOS
chmod +x "$tmp/run_writer"
PATH=$tmp:$PATH
export PATH

# refused WRITER DIR WHY [LIMIT] [keep]: the write fails and names the file, the old file is
# intact (keep: it must exist), nothing is left over. stdout and stderr go through a pipe, to
# which a file-size limit does not apply.
refused() {
	w=$1 d=$2 why=$3 lim=${4:-}
	f=$d/target.yaml
	if [ -n "$lim" ]; then
		sh -c 'ulimit -f "$1"; shift; "$@"; echo "status=$?"' sh "$lim" run_writer "$w" "$f" 2>&1 | cat >"$tmp/msg"
	else
		sh -c '"$@"; echo "status=$?"' sh run_writer "$w" "$f" 2>&1 | cat >"$tmp/msg"
	fi
	cases=$((cases + 1))
	st=$(sed -n 's/^status=//p' "$tmp/msg" | tail -n1)
	if [ "$st" = 0 ]; then
		fail "$w, $why: written"
	elif [ "${st:-999}" -ge 128 ]; then
		fail "$w, $why: killed (status $st)"
	fi
	grep -q "target.yaml" "$tmp/msg" || fail "$w, $why: the message does not name the file: $(head -c 300 "$tmp/msg")"
	if [ -e "$f" ] || [ -n "${5:-}" ]; then
		[ "$(cat "$f" 2>/dev/null)" = "$OLD" ] || fail "$w, $why: the old file changed"
	fi
	leftover=$(ls -a "$d" 2>/dev/null | grep -E '\.tmp' || true)
	[ -z "$leftover" ] || fail "$w, $why: temporary files left: $leftover"
	echo "ok: $w, $why: $(grep -m1 target.yaml "$tmp/msg")"
}

for w in $writers; do
	# a good write: the file is replaced whole, its permissions kept
	d=$tmp/good-$w
	mkdir -p "$d"
	echo "$OLD" >"$d/target.yaml"
	chmod 600 "$d/target.yaml"
	sh -c '"$@"' sh run_writer "$w" "$d/target.yaml" >"$tmp/msg" 2>&1 || fail "$w: a plain write failed: $(cat "$tmp/msg")"
	cases=$((cases + 1))
	[ "$(cat "$d/target.yaml")" != "$OLD" ] || fail "$w: the file was not replaced"
	[ "$(stat -c %a "$d/target.yaml")" = 600 ] || fail "$w: permissions became $(stat -c %a "$d/target.yaml")"
	[ -z "$(ls -a "$d" | grep -E '\.tmp')" ] || fail "$w: temporary files left after a good write"

	# past the file-size limit (RLIMIT_FSIZE, 0 blocks): EFBIG, not SIGXFSZ
	d=$tmp/fsize-$w
	mkdir -p "$d"
	echo "$OLD" >"$d/target.yaml"
	refused "$w" "$d" "file-size limit" 0 keep

	# a directory that does not exist
	refused "$w" "$tmp/no/such/dir" "missing directory"

	# the target is a directory
	d=$tmp/isdir-$w
	mkdir -p "$d/target.yaml"
	cases=$((cases + 1))
	sh -c '"$@"; echo "status=$?"' sh run_writer "$w" "$d/target.yaml" 2>&1 | cat >"$tmp/msg"
	[ "$(sed -n 's/^status=//p' "$tmp/msg")" = 1 ] || fail "$w: writing over a directory: $(cat "$tmp/msg")"
	[ -d "$d/target.yaml" ] || fail "$w: the directory was replaced"
	[ -z "$(ls -a "$d" | grep -E '\.tmp')" ] || fail "$w: temporary files left beside a directory"
done

# read-only directory and full disk
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/mnt-probe" && mount -t tmpfs -o size=64k tmpfs "$tmp/mnt-probe" 2>/dev/null; then
	mounts="$tmp/mnt-probe"
	umount "$tmp/mnt-probe" && mounts=""
	for w in $writers; do
		d=$tmp/ro-$w
		mkdir -p "$d"
		mount -t tmpfs -o size=64k tmpfs "$d" && mounts="$d $mounts"
		echo "$OLD" >"$d/target.yaml"
		mount -o remount,ro "$d" || fail "remount read-only"
		refused "$w" "$d" "read-only file system" "" keep

		d=$tmp/full-$w
		mkdir -p "$d"
		mount -t tmpfs -o size=64k tmpfs "$d" && mounts="$d $mounts"
		echo "$OLD" >"$d/target.yaml"
		dd if=/dev/zero of="$d/filler" bs=4k count=1000 2>/dev/null
		rm -f "$d"/filler.tmp*
		refused "$w" "$d" "full disk (tmpfs)" "" keep
		rm -f "$d/filler"
	done
elif [ "$(id -u)" != 0 ]; then
	for w in $writers; do
		d=$tmp/ro-$w
		mkdir -p "$d"
		echo "$OLD" >"$d/target.yaml"
		chmod 555 "$d"
		refused "$w" "$d" "read-only directory (chmod 555)" "" keep
		chmod 755 "$d"
	done
	echo "note: not root: the full disk is covered by the file-size limit only"
else
	echo "note: root but no tmpfs mount here: the read-only and full-disk cases are skipped"
fi

echo "$cases cases, $fails failures"
[ $fails -eq 0 ] || exit 1
echo "ok: atomic writes"
