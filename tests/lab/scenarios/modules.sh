# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The modules under test load, say which build they are, and unload.
# lab-drivers: ours intree

# build_id_is_this_build MOD: the loaded MOD has the build ID that
# /lab/build-ids gives for it (read on the host from the .ko files this
# tree's make produced): a stale or foreign module of the same name and
# version does not.
build_id_is_this_build() {
	local want got
	want=$(awk -v m="$1" '$1 == m { print $2 }' /lab/build-ids)
	got=$(lab_loaded_build_id "$1")
	echo "$1: loaded build ID '$got', this build's '$want'"
	[ -n "$want" ] && [ "$got" = "$want" ]
}

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
			check "$mod: loaded $m is this build (build ID)" build_id_is_this_build $m
		done
	fi
	check "$mod: unloads" modprobe -r $mod
	check "$mod: gone after unload" test ! -d /sys/module/$mod
done
