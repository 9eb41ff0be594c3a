#!/bin/sh
# Never answers; a child of its own keeps the pipes open too (the timeout must kill the whole group).
sleep 300 &
sleep 300
