#!/bin/sh
# case: one 20 MB line with no newline (a plain scalar)
# expect: reject
# timeout: 15
# Prints the scenario on stdout.
head -c 20971520 /dev/zero | tr '\0' 'z'
