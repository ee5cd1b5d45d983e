# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The modules under test load, say which build they are, and unload.
# lab-drivers: ours intree

for mod in ib_srp ib_iser; do
	if [ "$DRIVER" = ours ]; then
		check "$mod: modprobe picks ours from updates/" \
			sh -c "modinfo -F filename $mod | grep -q /updates/"
	fi
	lab_log_mark
	check "$mod: loads" modprobe $mod
	check "$mod: /sys/module/$mod exists" test -d /sys/module/$mod
	if [ "$DRIVER" = ours ]; then
		# rdi_core comes in as $mod's dependency
		for m in $mod rdi_core; do
			check "$mod: loaded $m is this build (build ID)" lab_module_is_this_build $m
		done
	fi
	check "$mod: unloads" modprobe -r $mod
	check "$mod: gone after unload" test ! -d /sys/module/$mod
done
