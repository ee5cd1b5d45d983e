# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP login/logout cycles (SRP_CYCLES, default 200) on path 0, each with
# its LUN scan, without multipathd: the slab caches and the module
# reference counts come back to where they started, then unload.
#
# Slab usage is read settled (lab_slab_settle). A leak grows its cache
# steadily: a cache fails when it grew by more than half of
# SRP_CYCLES_SLAB_TOLERANCE (128) objects in each half of the cycles (one
# more settled reading halfway), so a leak of one object per cycle fails
# at the default count. Noise moves once: kmalloc-96 moved by up to 150
# objects over 40 cycles with no steady growth over 200. Caches of
# processes (udev's workers come and go) and of the root file system are
# left out: no SRP, SCSI or RDMA object lives there.
#
# kmalloc-8 and kmalloc-16 get the allowance of lab_slab_steady for small
# caches (LAB_SLAB_SMALL_PER_CYCLE, 8 objects per cycle in each half): in
# the CI set's boot they grew by 552 and 325 (kmalloc-8) and 164 and 268
# (kmalloc-16) objects in the two halves with nothing of SRP in them. The
# initiator's only objects that small are the per-command registration
# slots (srp_init_cmd_priv()), whose leak would lose a whole queue depth
# per login.
#
# Knobs (LAB_ENV): SRP_CYCLES (2 or more; about 3 s each under TCG),
# SRP_CYCLES_SLAB_TOLERANCE, LAB_SLAB_SMALL_PER_CYCLE.
#
# lab-drivers: ours
. /lab/lib-srp.sh

: "${SRP_CYCLES:=200}"
: "${SRP_CYCLES_SLAB_TOLERANCE:=128}"
CYCLES_SLAB_SKIP='^(anon_vma|anon_vma_chain|vm_area_struct|mm_struct|files_cache|filp|cred_jar|task_struct|signal_cache|sighand_cache|pid|seq_file|names_cache|task_delay_info|fs_cache|dentry|inode_cache|proc_inode_cache|shmem_inode_cache|buffer_head|radix_tree_node|ext4_.*|jbd2_.*|kmalloc-cg-.*) '

# cycles_slabs FILE: settled "cache active-objects object-size" lines.
cycles_slabs() {
	lab_slab_settle
	lab_slab_caches | grep -Ev "$CYCLES_SLAB_SKIP" > "$1"
}

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
cycles_slabs /tmp/cycles-slab0
lab_slab_sites_save /tmp/cycles-sites0
ref0=$(cycles_refcnts)
t0=$SECONDS
n=0
while [ $n -lt $SRP_CYCLES ]; do
	cycles_one || { lab_note "cycle $n failed"; break; }
	n=$((n + 1))
	[ $n -eq $((SRP_CYCLES / 2)) ] && cycles_slabs /tmp/cycles-slabh
done
secs=$((SECONDS - t0))
lab_note "$n login/logout cycles took $secs s"
check "$SRP_CYCLES login/logout cycles ($secs s)" test $n -eq $SRP_CYCLES
check "no SRP host left" test -z "$(lab_srp_hosts)"
cycles_slabs /tmp/cycles-slab1
lab_slab_sites_save /tmp/cycles-sites1
ref1=$(cycles_refcnts)
lab_slab_diff /tmp/cycles-slab0 /tmp/cycles-slabh > /tmp/cycles-diff1
lab_slab_diff /tmp/cycles-slabh /tmp/cycles-slab1 > /tmp/cycles-diff2
lab_note "largest slab changes (first half, second half):"
join -a1 -a2 -e0 -o 0,1.2,2.2 <(sort -k1,1 /tmp/cycles-diff1) <(sort -k1,1 /tmp/cycles-diff2) |
	awk '{ print $2 + $3, $1, $2, $3 }' | sort -n | tail -8 | sed 's/^/    /'
half=$((SRP_CYCLES_SLAB_TOLERANCE / 2))
grown=$(lab_slab_steady $half . /tmp/cycles-diff1 /tmp/cycles-diff2 "$SRP_CYCLES")
check "no slab cache grew by more than $half objects (kmalloc-8/16: $(lab_slab_small_half "$SRP_CYCLES")) in each half${grown:+: $grown}" \
	test -z "$grown"
# With slub_debug=U for some caches (LAB_KARGS), where their new objects
# come from.
lab_slab_sites_note /tmp/cycles-sites0 /tmp/cycles-sites1
check "module reference counts back where they started" \
	sh -c "[ '$ref0' = '$ref1' ] || { echo 'before: $ref0'; echo 'after: $ref1'; exit 1; }"
check "ib_srp unloads" lab_unload ib_srp
