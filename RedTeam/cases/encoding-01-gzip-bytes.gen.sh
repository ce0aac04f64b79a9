#!/bin/sh
# case: binary input: gzip-compressed bytes
# expect: reject
# Prints the scenario on stdout.
seq 1 3000 | gzip -9 -n -c
