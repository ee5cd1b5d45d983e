# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER login/logout cycles (ISER_CYCLES, default 10; 200 in tests/run-all
# --long) without leaked slab objects or per-CPU counters, then unload. The node record is set to node.session.scan=manual for the
# cycles, so each costs the connection, login, session and logout and not a
# SCSI scan and udev run of two disks.
#
# The leak gate names its culprit (lab_slab_leak_check): the boot traces
# every slab object's allocation stack (slub_debug=U), and a stack with a
# frame in ib_iser, rdi_core or ib_srp that gains live objects in each half
# of the cycles fails, with no allowance: a leak of one object per login
# fails at any cycle count. Growth of stacks without a frame of ours is
# noted with its stacks; tests/run-all --compare runs the same with the
# in-tree ib_iser. (The kmalloc-16 and kernfs_node_cache drift of earlier
# runs, sysfs node names of removed nodes, fits dentries that outlived one
# write to drop_caches; lab_slab_settle now drops until they stop falling.)
#
# Also notes the slab one session (no LUN scanned) takes, for the
# benchmark's memory figures (ours, rx_data_max 8192: ~3 MiB, of which
# 1.1 MiB are the 136 receive buffers and ~2.3 MiB rxe's share of the
# connection's 512 fast-registration MRs).
#
# lab-drivers: ours intree
# lab-boot: leak
# lab-kargs: slub_debug=U
# lab-timeout: 900
# lab-long: ISER_CYCLES=200
source /lab/lib-iser.sh

cycles=${ISER_CYCLES:-10}
warmup=5

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "discovery over iSER" iser_discover $IP0
node() { iscsiadm -m node -T "$ISER_IQN" -p "$IP0:$ISER_PORT" -I iser "$@"; }
check "node record without LUN scan" node -o update -n node.session.scan -v manual

cycle() {
	node --login >/dev/null && node --logout >/dev/null
}

pcpu() { awk '$1 == "Percpu:" { print $2 }' /proc/meminfo; }

for ((i = 0; i < warmup; i++)); do
	cycle || break
done
check "$warmup warm-up cycles" test "$i" = "$warmup"

# one session's slab, settled, against none; the gate sees our
# allocations (else it would pass blind)
lab_slab_settle
lab_slab_caches > /tmp/cycles-idle
node --login >/dev/null
lab_slab_settle
lab_slab_caches > /tmp/cycles-session
n=$(lab_slab_traced_ours)
check "allocation stacks through our modules are traced while logged in ($n frames)" test "$n" -gt 0
node --logout >/dev/null
lab_note "slab of one session (rx_data_max $(cat /sys/module/ib_iser/parameters/rx_data_max 2>/dev/null || echo -)):" \
	"$(lab_slab_diff /tmp/cycles-idle /tmp/cycles-session | awk '{ kb += $3 } END { printf "%d KiB", kb / 1024 }')"
lab_slab_diff /tmp/cycles-idle /tmp/cycles-session | sort -k3 -nr | head -8 |
	awk '{ printf "    %s %+d objects, %+d KiB\n", $1, $2, $3 / 1024 }'

check "allocation stacks read before the cycles" lab_slab_sites_save /tmp/cycles-sites0
pcpu0=$(pcpu)
[ "$DRIVER" = ours ] && st0=$(lab_pcpu_stats)
start=$SECONDS
for ((i = 0; i < cycles; i++)); do
	cycle || break
	[ $i = $((cycles / 2 - 1)) ] && lab_slab_sites_save /tmp/cycles-sitesh
done
took=$((SECONDS - start))
check "$cycles login/logout cycles (${took}s)" test "$i" = "$cycles"
check "allocation stacks read after the cycles" lab_slab_sites_save /tmp/cycles-sites1
pcpu1=$(pcpu)
lab_slab_leak_check "no allocation stack through our modules grew in each half of $cycles cycles" \
	/tmp/cycles-sites0 /tmp/cycles-sitesh /tmp/cycles-sites1
# Per-CPU memory: each connection's counters (88 B per CPU, rdi/stats.c)
# are too small to move a total (Percpu in /proc/meminfo moves in pages):
# rdi_core counts the sets it allocates and frees instead.
lab_note "Percpu in /proc/meminfo over $cycles cycles: $pcpu0 -> $pcpu1 kB"
if [ "$DRIVER" = ours ]; then
	st1=$(lab_pcpu_stats)
	check "per-CPU counters of $cycles connections all freed ($(lab_pcpu_stats_flat "$st0" "$st1" $cycles))" \
		lab_pcpu_stats_flat "$st0" "$st1" $cycles
else
	skip "per-CPU counters of $cycles connections all freed" "the in-tree ib_iser has no rdi_core"
fi
node -o update -n node.session.scan -v auto
check "no iser session left" iser_no_session
check "ib_iser unloads after logout" iser_unload
