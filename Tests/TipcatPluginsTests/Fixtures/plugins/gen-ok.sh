#!/bin/sh
cat >/dev/null
cat <<'JSON'
{"protocol": "tipcat.plugin/1", "files": [{"path": "a.txt", "contents": "alpha\n"}, {"path": "nested/b.txt", "contents": "beta\n"}]}
JSON
