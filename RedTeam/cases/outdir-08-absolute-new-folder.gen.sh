#!/bin/sh
# case: outputs.dir: an absolute path to a new folder outside the scenario's folder
# expect: reject
# exit: 2
# Prints the scenario on stdout.
printf 'name: outdir-08\nhorizon_days: 10\nreplications: 1\npopulation:\n  installs: 150\noutputs:\n  dir: %s/l1/brand-new\n' "$RT_BOX"
