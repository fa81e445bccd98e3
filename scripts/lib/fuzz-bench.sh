#!/usr/bin/env bash
# `./scripts/bench fuzz [--time SECONDS]`: fuzzing for longer than the test command does (docs/api.md,
# "Fuzzing"). Builds the debug products (assertions and overflow checks on: a crash, not a wrong answer), then
# spends the budget (default 600 s) on scripts/fuzz-api runs of at most 300 s, each with a new random seed,
# printed before it starts, and a quarter of it on the parsers' libFuzzer targets (scripts/fuzz-parsers, each
# target its share, with a new seed). Goes on after a failure; ends with the seeds that failed and how to replay each. Non-zero if any did.
set -euo pipefail
cd "$(dirname "$0")/../.."

budget=600
while [ $# -gt 0 ]; do
    case "$1" in
        --time) budget=${2:?--time needs seconds}; shift 2 ;;
        --time=*) budget=${1#--time=}; shift ;;
        *) echo "bench fuzz: unknown argument $1 (only --time SECONDS)" >&2; exit 2 ;;
    esac
done
[[ "$budget" =~ ^[0-9]+$ && "$budget" -ge 60 ]] || { echo "bench fuzz: --time takes whole seconds, at least 60" >&2; exit 2; }

swift build --product tessera
swift build --product tessera-bench

failures=()
parsers=$((budget / 4))
api=$((budget - parsers))
# --seconds is each target's: the quarter shared among them, a new seed printed for a replay.
targets=$(find Fuzz/Targets -maxdepth 1 -name '*.swift' | wc -l)
each=$((parsers / (targets > 0 ? targets : 1)))
[ "$each" -ge 10 ] || each=10
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "==> bench fuzz: the parsers' $targets targets, $each s each, seed $seed (scripts/fuzz-parsers)"
scripts/fuzz-parsers --seconds "$each" --seed "$seed" \
    || failures+=("scripts/fuzz-parsers --seconds $each --seed $seed")

while [ "$api" -ge 60 ]; do
    seconds=$((api > 300 ? 300 : api))
    # A run shorter than a minute reaches little past the coverage phase: give it to the run before.
    [ $((api - seconds)) -lt 60 ] && seconds=$api
    seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    echo "==> bench fuzz: API, seed $seed, $seconds s"
    scripts/fuzz-api --seed "$seed" --time "$seconds" || failures+=("scripts/fuzz-api --seed $seed --time $seconds")
    api=$((api - seconds))
done

if [ ${#failures[@]} -gt 0 ]; then
    echo "==> bench fuzz: ${#failures[@]} run(s) failed; replay with:" >&2
    printf '    ./%s\n' "${failures[@]}" >&2
    exit 1
fi
echo "==> bench fuzz: every run passed"
