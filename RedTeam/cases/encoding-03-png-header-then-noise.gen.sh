#!/bin/sh
# case: a PNG signature followed by binary noise
# expect: reject
# Prints the scenario on stdout.
printf '\211PNG\r\n\032\n\000\000\000\rIHDR'; seq 1 500 | gzip -1 -n -c
