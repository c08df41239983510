# Sourced by the benches that scan standard games beside pgn-extract: sets
# `db` and `pgn` to a database and the PGN of the same games, every standard
# file of the real corpora, built once in "$work" (kept for the next run)
# unless both were given. Needs: virrey, corpus, work, db, pgn.
mkdir -p "$work"
if [[ -z $db ]]; then
  db=$work/db pgn=$work/all.pgn
  if [[ ! -e $work/done ]]; then
    rm -rf "$db" "$pgn"
    for f in "$corpus"/*.pgn.zst; do
      zstd -dcq <"$f" >>"$pgn"
      echo >>"$pgn"
    done
    status=0
    "$virrey" -q import "$pgn" --db "$db" --variant standard --compact >&2 || status=$?
    (( status <= 1 )) || exit 3
    touch "$work/done"
  fi
fi
