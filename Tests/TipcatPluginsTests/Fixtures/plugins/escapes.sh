#!/bin/sh
cat >/dev/null
printf '{"protocol": "tipcat.plugin/1", "diagnostics": [{"severity": "warning", "rule": "evil\\u001b[31m", "message": "red \\u001b[31malert\\u001b[0m \\u001b]52;c;ZXZpbA==\\u0007 bell\\u009b2J done", "file": "tips/FoodEventTip.json", "pointer": "/message"}]}\n'
printf '\033[2J\033]52;c;ZXZpbA==\007 stderr junk\n' >&2
