#!/usr/bin/env bash
# Validates every file of the real corpora and compares the verdicts with
# tests/data/real-corpora.expected. Usage: check-real-corpora.sh VIRREY CORPUS_DIR
set -euo pipefail
virrey=$1
corpus=$2
expected="$(dirname "$0")/../tests/data/real-corpora.expected"
if [[ ! -d "$corpus" ]]; then
  echo "no corpus at $corpus: skipped"
  exit 77  # ctest's SKIP_RETURN_CODE (tests/CMakeLists.txt)
fi
status=0
while read -r file games valid errors illegal mismatch; do
  [[ -z "$file" || "$file" == \#* ]] && continue
  summary=$("$virrey" validate --threads 2 --format jsonl "$corpus/$file" | tail -n 1 || true)
  got=$(python3 - "$summary" <<'PY'
import json, sys
s = json.loads(sys.argv[1])["summary"]
c = s["codes"]
print(s["games"], s["valid"], s["with_errors"], c.get("illegal-move", 0), c.get("result-mismatch", 0))
PY
)
  want="$games $valid $errors $illegal $mismatch"
  if [[ "$got" == "$want" ]]; then
    echo "ok   $file: $got"
  else
    echo "FAIL $file: got $got, expected $want"
    status=1
  fi
done < "$expected"
exit $status
