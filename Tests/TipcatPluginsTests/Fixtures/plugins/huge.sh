#!/bin/sh
# 100 MB on standard output, without reading the request.
head -c 104857600 /dev/zero | tr '\0' 'x'
