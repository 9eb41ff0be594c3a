#!/bin/sh
cat >/dev/null
printf '{"protocol": "tipcat.plugin/1", "diagnostics": [ oops'
