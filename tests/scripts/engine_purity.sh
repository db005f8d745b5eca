#!/bin/sh
# The engine is pure: no files, terminal, allocation, dlopen or exit on its code path.
# Fails if libnapkin_engine.a references any such symbol (snprintf into buffers is fine).
set -eu
lib="$1"
bad=$(nm -u "$lib" | awk '{print $NF}' | sed 's/@.*//' | grep -E -x \
  'malloc|calloc|realloc|free|fopen|fclose|fread|fwrite|fprintf|printf|puts|fputs|putchar|open|read|write|close|exit|abort|dlopen|dlsym|getenv|system|popen|time|clock_gettime|rand|srand' || true)
if [ -n "$bad" ]; then
  echo "src/engine references impure functions:"
  echo "$bad"
  exit 1
fi
echo "engine is pure: $(nm -u "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u | tr '\n' ' ')"
