# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP login/logout cycles (SRP_CYCLES, default 10; 200 in tests/run-all
# --long) on path 0, each with its LUN scan, without multipathd: no
# allocation stack through our modules keeps objects, every channel's
# per-CPU counters are freed (rdi_core's count), the module reference
# counts come back to where they started, then unload.
#
# The leak gate names its culprit (lab_slab_leak_check): the boot traces
# every slab object's allocation stack (slub_debug=U), and a stack with a
# frame in ib_srp, ib_iser or rdi_core that gains live objects in each half
# of the cycles fails, with no allowance: a leak of one object per login
# fails at any cycle count (the module that leaked
# one kmalloc object per login showed kmalloc-32 +5+5 at 10 cycles, named
# at srp_target_connect). Growth of stacks without a frame of ours is
# noted with its stacks; tests/run-all --compare runs the same with the
# in-tree ib_srp. A removed host's sysfs tree that outlived one write to
# drop_caches failed this gate in 2 of 4 runs until lab_slab_settle
# dropped caches until the dentries stopped falling.
#
# lab-drivers: ours intree
# lab-boot: leak
# lab-kargs: slub_debug=U
# lab-timeout: 900
# lab-long: SRP_CYCLES=200
. /lab/lib-srp.sh

: "${SRP_CYCLES:=10}"

cycles_refcnts() {
	local m
	for m in ib_srp rdi_core scsi_transport_srp ib_core rdma_cm ib_cm iw_cm rdma_rxe; do
		[ -r /sys/module/$m/refcnt ] && echo "$m $(cat /sys/module/$m/refcnt)"
	done
}

# cycles_one: one login on path 0, its LUNs scanned, logout.
cycles_one() {
	local h
	h=$(lab_srp_login 0) || return 1
	srp_wait_disks $h 2 || return 1
	srp_logout $h
}

lab_srpt_up 2
lab_multipathd_down
check "ib_srp loads" lab_srp_load
check "warm-up login/logout" cycles_one
# The gate sees our allocations (else it would pass blind).
h=$(lab_srp_login 0) && srp_wait_disks "$h" 2
n=$(lab_slab_traced_ours)
check "allocation stacks through our modules are traced while logged in ($n frames)" test "$n" -gt 0
check "logout" srp_logout_all
check "allocation stacks read before the cycles" lab_slab_sites_save /tmp/cycles-sites0
ref0=$(cycles_refcnts)
st0=$(lab_pcpu_stats)
t0=$SECONDS
n=0
while [ $n -lt $SRP_CYCLES ]; do
	cycles_one || { lab_note "cycle $n failed"; break; }
	n=$((n + 1))
	[ $n -eq $((SRP_CYCLES / 2)) ] && lab_slab_sites_save /tmp/cycles-sitesh
done
secs=$((SECONDS - t0))
check "$SRP_CYCLES login/logout cycles ($secs s)" test $n -eq $SRP_CYCLES
check "no SRP host left" test -z "$(lab_srp_hosts)"
check "allocation stacks read after the cycles" lab_slab_sites_save /tmp/cycles-sites1
ref1=$(cycles_refcnts)
lab_slab_leak_check "no allocation stack through our modules grew in each half of $SRP_CYCLES cycles" \
	/tmp/cycles-sites0 /tmp/cycles-sitesh /tmp/cycles-sites1
# Each channel's per-CPU counters (88 B per CPU, rdi/stats.c), counted
# by rdi_core: no total of per-CPU memory shows a leak that small.
st1=$(lab_pcpu_stats)
if [ "$DRIVER" = ours ]; then
	check "per-CPU counters of $SRP_CYCLES logins' channels all freed ($(lab_pcpu_stats_flat "$st0" "$st1" $SRP_CYCLES))" \
		lab_pcpu_stats_flat "$st0" "$st1" $SRP_CYCLES
else
	skip "per-CPU counters of $SRP_CYCLES logins' channels all freed" "the in-tree ib_srp has no rdi_core"
fi
check "module reference counts back where they started" \
	sh -c "[ '$ref0' = '$ref1' ] || { echo 'before: $ref0'; echo 'after: $ref1'; exit 1; }"
check "ib_srp unloads" lab_unload ib_srp
