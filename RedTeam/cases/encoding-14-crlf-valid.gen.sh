#!/bin/sh
# case: a valid scenario with CRLF line ends
# expect: no-crash
# Prints the scenario on stdout.
printf 'name: encoding-14\r\nhorizon_days: 10\r\nreplications: 1\r\npopulation:\r\n  installs: 150\r\n'
