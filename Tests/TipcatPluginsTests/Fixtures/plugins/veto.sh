#!/bin/sh
# A pre-publish hook that refuses releases to production and records what it was told.
cat > "${HOOK_OUT:-/dev/null}"
echo '{"protocol": "tipcat.plugin/1", "diagnostics": [{"severity": "error", "rule": "freeze", "message": "production is frozen this week", "file": "catalog.json", "pointer": "/name"}]}'
