#!/bin/sh
# Fetches libyaml's sources from Debian's archive (the same version the system's libyaml-dev
# comes from) into third_party/libyaml, for the fuzz build: compiled with the fuzzer's
# instrumentation, libyaml's own parser becomes visible to libFuzzer's coverage.
#
#   ./scripts/fetch-libyaml.sh          (needs apt and a Debian mirror; run as any user)
#
# The system's apt configuration is left alone: a private deb-src list and a private list
# directory under third_party/.apt (ignored by git, like the sources).
set -eu
cd "$(dirname "$0")/.."
dest=third_party/libyaml
if [ -f "$dest/src/parser.c" ] && [ -f "$dest/include/yaml.h" ]; then
	echo "libyaml sources already in $dest"
	exit 0
fi

# The mirror the system's own apt sources use (deb822 "URIs:" or one-line "deb URL"),
# security archives aside.
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
	2>/dev/null | sed -nE 's/^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)([a-z]+:\/\/[^[:space:]]+).*/\3/p' |
	grep -v security | head -n1 || true)
suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
mirror=${NAPKIN_DEBIAN_MIRROR:-${mirror:-http://deb.debian.org/debian}}
suite=${NAPKIN_DEBIAN_SUITE:-${suite:-bookworm}}

work=third_party/.apt
rm -rf "$work"
mkdir -p "$work/lists/partial" "$work/download"
echo "deb-src $mirror $suite main" >"$work/sources.list"
set -- -o Dir::Etc::SourceList="$PWD/$work/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
	-o Dir::State::Lists="$PWD/$work/lists" -o APT::Sandbox::User=root
apt-get -qq "$@" update
# apt checks the files against the archive's signed Release (sha256)
(cd "$work/download" && apt-get -qq "$@" source --download-only libyaml)
orig=$(ls "$work"/download/libyaml_*.orig.tar.gz | head -n1)
[ -n "$orig" ] || { echo "fetch-libyaml: no libyaml source tarball came back" >&2; exit 1; }

rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xzf "$orig" -C "$dest.tmp" --strip-components=1
version=$(basename "$orig" | sed -E 's/^libyaml_([0-9.]+)\.orig\.tar\.gz$/\1/')
echo "$version" >"$dest.tmp/NAPKIN_VERSION"
mv "$dest.tmp" "$dest"
rm -rf "$work"
echo "libyaml $version sources in $dest"
