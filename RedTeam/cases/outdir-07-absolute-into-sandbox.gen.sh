#!/bin/sh
# case: outputs.dir: an absolute path to a non-empty folder (the sandbox's l1/side)
# expect: reject
# exit: 2
# Prints the scenario on stdout.
printf 'name: outdir-07\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\noutputs:\n  dir: %s/l1/side\n' "$RT_BOX"
