#!/bin/sh
# case: 4 KB of NUL bytes
# expect: reject
# Prints the scenario on stdout.
head -c 4096 /dev/zero
