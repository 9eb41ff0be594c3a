#!/bin/sh
# Deterministic findings for the golden tests: a pointer into a tip file, a line/column, a pointer into the
# String Catalog, and a finding without a file.
cat >/dev/null
cat <<'JSON'
{"protocol": "tipcat.plugin/1", "diagnostics": [
  {"severity": "warning", "rule": "no-exclamation", "message": "titles do not shout", "file": "tips/PasswordResetTip.json", "pointer": "/title"},
  {"severity": "error", "rule": "banned-word", "message": "'on' after 'tap' is not our style", "file": "tips/FoodEventTip.json", "pointer": "/message"},
  {"severity": "note", "rule": "by-line", "message": "located by line and column", "file": "catalog.json", "line": 3, "column": 3},
  {"severity": "warning", "rule": "translation", "message": "the French title is long", "file": "Localizable.xcstrings", "pointer": "/strings/ShowLocationTip.title/localizations/fr/stringUnit/value"},
  {"severity": "warning", "rule": "catalog-wide", "message": "a finding about the whole catalog"}
]}
JSON
