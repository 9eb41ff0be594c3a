#!/bin/sh
cat >/dev/null
echo '{"protocol": "tipcat.plugin/2", "diagnostics": []}'
