# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The modules under test load, say which build they are, and unload.
# lab-drivers: ours intree
for mod in ib_srp ib_iser; do
	if [ "$DRIVER" = ours ]; then
		check "$mod: modprobe picks ours from updates/" \
			sh -c "modinfo -F filename $mod | grep -q /updates/"
		check "$mod: modinfo version is this build" \
			sh -c "[ \"\$(modinfo -F version $mod)\" = \"\$(cat /lab/version)\" ]"
	fi
	check "$mod: loads" modprobe $mod
	check "$mod: /sys/module/$mod exists" test -d /sys/module/$mod
	if [ "$DRIVER" = ours ]; then
		check "$mod: load message names the version" \
			sh -c "dmesg | grep -q \"$mod: .*version \$(cat /lab/version)\""
	fi
	check "$mod: unloads" modprobe -r $mod
	check "$mod: gone after unload" test ! -d /sys/module/$mod
done
