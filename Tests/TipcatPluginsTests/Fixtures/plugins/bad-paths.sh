#!/bin/sh
cat >/dev/null
echo '{"protocol": "tipcat.plugin/1", "files": [{"path": "ok.txt", "contents": "fine"}, {"path": "../escape.txt", "contents": "x"}, {"path": "/tmp/absolute.txt", "contents": "x"}]}'
