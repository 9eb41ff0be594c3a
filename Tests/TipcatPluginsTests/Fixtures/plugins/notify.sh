#!/bin/sh
# A post-publish hook: records the request, then fails (a failure must not undo the version).
cat > "${HOOK_OUT:-/dev/null}"
echo "webhook unreachable" >&2
exit 2
