#!/bin/sh
# Chinese wherever napkin runs (issue 15, docs/i18n.md): the built binary from another
# directory with nothing beside it (the catalogue is compiled in), under LC_ALL=C (no zh_CN
# locale on the machine); after `cmake --install` the catalogue is in share/locale in the
# standard layout, and NAPKIN_LOCALEDIR pointed there reads it (a broken one is refused whole:
# English, no crash).
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin BUILD_DIR}
BUILD=${2:?usage: $0 PATH/TO/napkin BUILD_DIR}
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
zh='每张 GPU 的显存'
(cd "$tmp" && LC_ALL=C "$NAPKIN" report --lang zh) | grep -q "$zh" || fail "--lang zh from another directory under LC_ALL=C"
(cd "$tmp" && env -u LC_ALL -u LANGUAGE LANG=zh_CN.UTF-8 "$NAPKIN" report) | grep -q "$zh" || fail "LANG=zh_CN.UTF-8"
command -v cmake >/dev/null 2>&1 && [ -f "$BUILD/cmake_install.cmake" ] || { echo "ok: no install tree to check"; exit 0; }
[ -f "$BUILD/locale/zh_CN/LC_MESSAGES/napkin.mo" ] || { echo "ok: built without msgfmt (English only)"; exit 0; }
cmake --install "$BUILD" --prefix "$tmp/prefix" >/dev/null 2>&1 || fail "cmake --install fails"
mo=$tmp/prefix/share/locale/zh_CN/LC_MESSAGES/napkin.mo
[ -s "$mo" ] || fail "cmake --install did not put the catalogue at share/locale/zh_CN/LC_MESSAGES/napkin.mo"
cmp -s "$mo" "$BUILD/locale/zh_CN/LC_MESSAGES/napkin.mo" || fail "the installed catalogue differs from the built one"
inst=$tmp/prefix/bin/napkin
[ -x "$inst" ] || fail "no installed binary"
(cd / && NAPKIN_LOCALEDIR="$tmp/prefix/share/locale" "$inst" report --lang zh) | grep -q "$zh" ||
	fail "the installed napkin with NAPKIN_LOCALEDIR=<prefix>/share/locale"
# a catalogue cut short there: refused whole, English, status 0
mkdir -p "$tmp/bad/zh_CN/LC_MESSAGES"
head -c 100 "$mo" >"$tmp/bad/zh_CN/LC_MESSAGES/napkin.mo"
out=$(NAPKIN_LOCALEDIR="$tmp/bad" "$inst" report --lang zh) || fail "a broken catalogue: exit $?"
printf '%s\n' "$out" | grep -q 'Memory per GPU' || fail "a broken catalogue did not fall back to English"
echo "ok: Chinese from the build, from another directory and after install"
