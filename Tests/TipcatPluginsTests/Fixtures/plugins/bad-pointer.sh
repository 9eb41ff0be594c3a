#!/bin/sh
cat >/dev/null
echo '{"protocol": "tipcat.plugin/1", "diagnostics": [{"severity": "error", "rule": "r", "message": "m", "file": "tips/FoodEventTip.json", "pointer": "/nope"}, {"severity": "error", "rule": "r", "message": "m", "file": "tips/Missing.json", "pointer": "/title"}, {"severity": "error", "rule": "r", "message": "m", "file": "../outside.json", "line": 1}, {"severity": "error", "rule": "r", "message": "m", "file": "catalog.json", "line": 999}]}'
