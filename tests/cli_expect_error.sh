#!/bin/sh
# Usage: cli_expect_error.sh CODE REGEX COMMAND...: passes when COMMAND exits with CODE and its
# stderr matches the extended regular expression REGEX (bad-input tests of the CLI).
code=$1 regex=$2
shift 2
err=$("$@" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -ne "$code" ]; then echo "exit code $rc, expected $code; stderr: $err"; exit 1; fi
if ! printf '%s\n' "$err" | grep -Eq -- "$regex"; then echo "stderr does not match '$regex': $err"; exit 1; fi
echo "ok: exit $rc, $err"
