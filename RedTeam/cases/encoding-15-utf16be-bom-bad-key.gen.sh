#!/bin/sh
# case: UTF-16BE with a BOM and a misspelled key
# expect: reject
# Prints the scenario on stdout.
printf '\376\377'; printf 'name: encoding-15\nhorizon_dayz: 10\nreplications: 1\npopulation:\n  installs: 150\n' | iconv -f UTF-8 -t UTF-16BE
