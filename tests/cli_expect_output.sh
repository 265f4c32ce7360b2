#!/bin/sh
# Usage: cli_expect_output.sh CODE REGEX MAXLINE COMMAND...: passes when COMMAND exits with CODE,
# its output (stdout and stderr, lines joined by spaces) matches the extended regular expression
# REGEX, and holds no control character but the line ends and no line longer than MAXLINE bytes
# (untrusted names printed).
code=$1 regex=$2 maxline=$3
shift 3
out=$("$@" 2>&1)
rc=$?
if [ "$rc" -ne "$code" ]; then echo "exit code $rc, expected $code; output: $out" | cut -c1-2000; exit 1; fi
ctl=$(printf '[\001-\010\013-\037\177]')
if printf '%s\n' "$out" | LC_ALL=C grep -q "$ctl"; then echo "control characters in the output:"; printf '%s\n' "$out" | od -c | head -20; exit 1; fi
long=$(printf '%s\n' "$out" | LC_ALL=C awk -v m="$maxline" 'length($0) > m { print NR ": " length($0) " bytes"; exit }')
if [ -n "$long" ]; then echo "a line longer than $maxline bytes: line $long"; exit 1; fi
if ! printf '%s\n' "$out" | tr '\n' ' ' | grep -Eq -- "$regex"; then echo "output does not match '$regex': $out" | cut -c1-2000; exit 1; fi
echo "ok: exit $rc"
printf '%s\n' "$out" | cut -c1-300
