#!/bin/sh
# case: the first bytes of an executable
# expect: reject
# Prints the scenario on stdout.
head -c 2048 /bin/sh
