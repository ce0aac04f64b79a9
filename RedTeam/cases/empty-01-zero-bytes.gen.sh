#!/bin/sh
# case: a 0-byte file
# expect: reject
# Prints the scenario on stdout.
: # prints nothing
