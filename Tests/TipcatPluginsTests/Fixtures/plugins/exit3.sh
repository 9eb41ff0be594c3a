#!/bin/sh
cat >/dev/null
echo "first line of trouble" >&2
echo "the database is on fire" >&2
exit 3
