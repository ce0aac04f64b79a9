#!/bin/sh
# case: only newlines and spaces
# expect: reject
# Prints the scenario on stdout.
printf '\n\n   \n  \n\n'
