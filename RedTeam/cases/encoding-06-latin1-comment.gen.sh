#!/bin/sh
# case: Latin-1 bytes in a comment of an otherwise valid scenario
# expect: reject
# Prints the scenario on stdout.
printf '# r\351sum\351 of the na\357ve pricing test\nname: encoding-06\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\n'
