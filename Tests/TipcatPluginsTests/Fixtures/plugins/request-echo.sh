#!/bin/sh
# Saves the request it got (for protocol tests) and answers nothing found.
cat > "$REQUEST_OUT"
echo '{"protocol": "tipcat.plugin/1", "diagnostics": [], "files": []}'
